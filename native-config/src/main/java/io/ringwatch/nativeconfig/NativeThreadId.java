package io.ringwatch.nativeconfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The kernel's id of the calling thread (its tid), which Java does not expose before 19, read from the
 * {@code /proc/thread-self} link ({@code <pid>/task/<tid>}, Linux 3.17+). Lets another thread act on this one, e.g.
 * {@link RealtimePriority#raiseThread(int, int)}, so a thread with a deadline need not make the slow call itself.
 */
public final class NativeThreadId
{
    /** Returned when the id cannot be read (not Linux, no procfs). */
    public static final int UNKNOWN = -1;

    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    private NativeThreadId()
    {
    }

    /**
     * @return the calling thread's tid, or {@link #UNKNOWN}.
     */
    public static int current()
    {
        try
        {
            final String target = Files.readSymbolicLink(THREAD_SELF).toString();
            return Integer.parseInt(target.substring(target.lastIndexOf('/') + 1));
        }
        catch (final IOException | UnsupportedOperationException | SecurityException | NumberFormatException ex)
        {
            return UNKNOWN;
        }
    }
}
