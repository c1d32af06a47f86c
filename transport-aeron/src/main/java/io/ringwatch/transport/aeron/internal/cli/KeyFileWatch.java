package io.ringwatch.transport.aeron.internal.cli;

import java.io.File;
import java.nio.file.Path;

/**
 * Tells a node's main thread that its key file changed, rewritten in place or replaced by a sibling moved over it,
 * from the file's size and modification time (milliseconds). {@link File} reads both without allocating; the
 * {@code Files.readAttributes} version made about 1 KB of garbage on every poll, four times a second for the life of
 * the node (issue 31). It also compared the inode, which a replacement changes; a replacement changes the time as
 * well, since the sibling was written later, unless both files were written within the same millisecond or a copy
 * kept an older time and the sizes match. Not thread safe: the main thread's.
 */
final class KeyFileWatch
{
    private final File file;
    private long length;
    private long modifiedMs;

    /**
     * @param keyFile the node's key file, as it is now.
     */
    KeyFileWatch(final Path keyFile)
    {
        file = keyFile.toFile();
        length = file.length();
        modifiedMs = file.lastModified();
    }

    /**
     * @return true if the file's size or time differs from the last call's (or the start's); a missing or unreadable
     * file reads as size 0, time 0, so its loss is one change and its return another.
     */
    boolean changed()
    {
        final long nowLength = file.length();
        final long nowModifiedMs = file.lastModified();
        if (nowLength == length && nowModifiedMs == modifiedMs)
        {
            return false;
        }
        length = nowLength;
        modifiedMs = nowModifiedMs;
        return true;
    }
}
