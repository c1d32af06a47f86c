package io.ringwatch.transport.aeron.internal;

import io.ringwatch.transport.aeron.RingwatchConfiguration;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
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
     * restrict it; on file systems without POSIX permissions, do nothing. Neither its directory nor the file may be
     * a symbolic link, and the directory must be this user's (or the configured group's): whoever owns it can
     * replace the files in it.
     *
     * @param file  the slot or view file, about to be opened.
     * @param group {@value RingwatchConfiguration#FILES_GROUP_PROP_NAME}, or null for owner only.
     * @throws IllegalStateException if the directory or file is a symbolic link, or belongs to another user outside
     *                               the configured group.
     */
    public static void prepare(final File file, final String group)
    {
        prepare(file, group, System.getProperty("user.name"));
    }

    static void prepare(final File file, final String group, final String user)
    {
        final Path path = file.toPath().toAbsolutePath();
        final Path directory = path.getParent();
        final PosixFileAttributeView view = Files.getFileAttributeView(directory, PosixFileAttributeView.class);
        if (view == null)
        {
            return;
        }
        final Set<PosixFilePermission> permissions = group == null ? OWNER_ONLY : OWNER_AND_GROUP;
        try
        {
            Files.createDirectories(directory);
            final PosixFileAttributes directoryAttributes =
                Files.readAttributes(directory, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (directoryAttributes.isSymbolicLink())
            {
                throw new IllegalStateException(directory + " is a symbolic link (to " +
                    Files.readSymbolicLink(directory) + "): slot and view files are made only in a directory " +
                    "itself, so nobody can point them elsewhere; give aeron.dir the real path");
            }
            checkOwner(directory, directoryAttributes, group, user, "create or replace the files in it");
            try
            {
                Files.createFile(path, PosixFilePermissions.asFileAttribute(permissions));
            }
            catch (final FileAlreadyExistsException ignore)
            {
                // made earlier: by a node of this cluster, or by someone else
            }
            final PosixFileAttributes fileAttributes =
                Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!fileAttributes.isRegularFile())
            {
                throw new IllegalStateException(file + " is " + (fileAttributes.isSymbolicLink() ?
                    "a symbolic link (to " + Files.readSymbolicLink(path) + ")" : "not a regular file") +
                    ": refusing to write heartbeats or views through it; remove it");
            }
            if (checkOwner(path, fileAttributes, group, user, "forge heartbeats or views"))
            {
                final PosixFileAttributeView fileView =
                    Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
                if (group != null)
                {
                    final GroupPrincipal principal =
                        path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName(group);
                    fileView.setGroup(principal);
                }
                fileView.setPermissions(permissions);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create " + file + " with permissions " +
                PosixFilePermissions.toString(permissions) + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @return true if {@code user} owns it; false if another user does and it belongs to the configured group.
     * @throws IllegalStateException if neither.
     */
    private static boolean checkOwner(
        final Path path,
        final PosixFileAttributes attributes,
        final String group,
        final String user,
        final String power)
    {
        final String owner = attributes.owner().getName();
        if (owner.equals(user))
        {
            return true;
        }
        if (group != null && attributes.group().getName().equals(group))
        {
            return false;
        }
        throw new IllegalStateException(path + " belongs to " + owner + ", not to " + user +
            (group == null ? "" : " nor to group " + group) + ": whoever owns it can " + power + "; remove it, " +
            "and keep aeron.dir a directory only this user can write (see doctor)");
    }
}
