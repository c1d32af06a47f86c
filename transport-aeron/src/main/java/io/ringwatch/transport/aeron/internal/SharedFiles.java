package io.ringwatch.transport.aeron.internal;

import io.ringwatch.transport.aeron.RingwatchConfiguration;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Who may write the files other processes trust: heartbeat slots (a store there is a heartbeat) and view files (what
 * {@code stat} and applications read). They are created {@code 0600}, or {@code 0660} with the group named by
 * {@value RingwatchConfiguration#FILES_GROUP_PROP_NAME} when nodes of several users share a host; a file someone
 * else made first (another user squatting the name in a shared directory) is refused with its owner named.
 */
public final class SharedFiles
{
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_AND_GROUP = PosixFilePermissions.fromString("rw-rw----");

    private SharedFiles()
    {
    }

    /**
     * Create {@code file} (empty) with restricted permissions if it does not exist, else check who made it and
     * restrict it; on file systems without POSIX permissions, do nothing.
     *
     * @param file  the slot or view file, about to be opened.
     * @param group {@value RingwatchConfiguration#FILES_GROUP_PROP_NAME}, or null for owner only.
     * @throws IllegalStateException if the file belongs to another user outside the configured group.
     */
    public static void prepare(final File file, final String group)
    {
        final Path path = file.toPath();
        final PosixFileAttributeView view = Files.getFileAttributeView(
            path.toAbsolutePath().getParent(), PosixFileAttributeView.class);
        if (view == null)
        {
            return;
        }
        final Set<PosixFilePermission> permissions = group == null ? OWNER_ONLY : OWNER_AND_GROUP;
        try
        {
            Files.createDirectories(path.toAbsolutePath().getParent());
            try
            {
                Files.createFile(path, PosixFilePermissions.asFileAttribute(permissions));
            }
            catch (final FileAlreadyExistsException ignore)
            {
                // made earlier: by a node of this cluster, or by someone else
            }
            final PosixFileAttributeView fileView = Files.getFileAttributeView(path, PosixFileAttributeView.class);
            final String owner = Files.getOwner(path).getName();
            final String user = System.getProperty("user.name");
            if (owner.equals(user))
            {
                if (group != null)
                {
                    final GroupPrincipal principal =
                        path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName(group);
                    fileView.setGroup(principal);
                }
                fileView.setPermissions(permissions);
            }
            else if (group == null || !fileView.readAttributes().group().getName().equals(group))
            {
                throw new IllegalStateException(file + " belongs to " + owner + ", not to " + user +
                    (group == null ? "" : " nor to group " + group) + ": whoever can write it can forge heartbeats " +
                    "or views; remove it, and keep aeron.dir a directory only this user can write (see doctor)");
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create " + file + " with permissions " +
                PosixFilePermissions.toString(permissions) + ": " + ex.getMessage(), ex);
        }
    }
}
