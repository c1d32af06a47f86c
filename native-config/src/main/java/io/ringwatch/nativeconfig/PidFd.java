package io.ringwatch.nativeconfig;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * Process file descriptors ({@code pidfd_open(2)}, Linux 5.3+): a pidfd turns readable the moment its process
 * exits, before anyone reaps it, so a thread blocked in {@code poll(2)} on the pidfds of a daemon's children wakes
 * straight from the kernel, one hop sooner than through the JDK's reaper thread; {@code waitid(P_PIDFD, WNOWAIT)}
 * reads the exit status and leaves the child for the JDK to reap. Through JNA; {@link #available()} says whether it
 * works here.
 */
public final class PidFd
{
    /** Returned by {@link #exitStatus(int)} when the status cannot be read (already reaped, or not exited). */
    public static final int UNKNOWN = Integer.MIN_VALUE;

    private static final int SYS_PIDFD_OPEN = 434; // x86_64 and the generic table (aarch64) alike
    private static final int P_PIDFD = 3;
    private static final int WEXITED = 4;
    private static final int WNOHANG = 1;
    private static final int WNOWAIT = 0x0100_0000;
    private static final short POLLIN = 1;
    private static final int CLD_EXITED = 1;
    private static final int POLLFD_LENGTH = 8;
    private static final int SIGINFO_LENGTH = 128;
    private static final int SI_CODE_OFFSET = 8;
    private static final int SI_PID_OFFSET = 16;
    private static final int SI_STATUS_OFFSET = 24;

    interface LibC extends Library
    {
        int syscall(int number, Object... args);

        int poll(Pointer fds, int nfds, int timeoutMs);

        int waitid(int idType, int id, Pointer info, int options);

        int close(int fd);
    }

    private static final LinuxLibC<LibC> LIBC = LinuxLibC.load(LibC.class, "pidfd_open");
    private static final String UNAVAILABLE = probe();

    private PidFd()
    {
    }

    private static String probe()
    {
        if (LIBC.library() == null)
        {
            return LIBC.unavailableReason();
        }
        try
        {
            final int fd = LIBC.library().syscall(SYS_PIDFD_OPEN, (int)ProcessHandle.current().pid(), 0);
            if (fd < 0)
            {
                return "pidfd_open failed: errno " + Native.getLastError() + " (kernel older than 5.3?)";
            }
            LIBC.library().close(fd);
            return "";
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return "pidfd_open not callable through JNA: " + ex;
        }
    }

    /**
     * @return true if pidfds work here.
     */
    public static boolean available()
    {
        return UNAVAILABLE.isEmpty();
    }

    /**
     * @return why pidfds do not work here, or "".
     */
    public static String unavailableReason()
    {
        return UNAVAILABLE;
    }

    /**
     * @param pid a process.
     * @return its pidfd, or -1.
     */
    public static int open(final long pid)
    {
        return available() ? LIBC.library().syscall(SYS_PIDFD_OPEN, (int)pid, 0) : -1;
    }

    /**
     * @param fd a pidfd from {@link #open(long)}.
     */
    public static void close(final int fd)
    {
        if (fd >= 0)
        {
            LIBC.library().close(fd);
        }
    }

    /**
     * A reusable {@code poll(2)} set of pidfds, for one thread.
     */
    public static final class PollSet
    {
        private final Memory fds;
        private final int count;

        /**
         * @param pidfds the pidfds to watch; negative entries are ignored by the kernel.
         */
        public PollSet(final int[] pidfds)
        {
            count = pidfds.length;
            fds = new Memory((long)Math.max(1, count) * POLLFD_LENGTH);
            fds.clear();
            for (int i = 0; i < count; i++)
            {
                fds.setInt((long)i * POLLFD_LENGTH, pidfds[i]);
                fds.setShort((long)i * POLLFD_LENGTH + 4, POLLIN);
            }
        }

        /**
         * @param timeoutMs how long to block at most.
         * @return how many pidfds are readable (their processes exited), 0 on timeout, -1 on error.
         */
        public int await(final int timeoutMs)
        {
            return LIBC.library().poll(fds, count, timeoutMs);
        }

        /**
         * @param index an entry.
         * @return true if the last {@link #await(int)} found its process exited.
         */
        public boolean exited(final int index)
        {
            return (fds.getShort((long)index * POLLFD_LENGTH + 6) & POLLIN) != 0;
        }

        /**
         * Stop watching an entry (its exit was handled): the kernel skips negative descriptors.
         *
         * @param index an entry.
         */
        public void remove(final int index)
        {
            fds.setInt((long)index * POLLFD_LENGTH, -1);
            fds.setShort((long)index * POLLFD_LENGTH + 6, (short)0);
        }
    }

    /**
     * @param fd a readable pidfd of a child of this process.
     * @return its exit status as {@link Process#exitValue()} gives it (the code, or 128 + the signal), without
     * reaping it; {@link #UNKNOWN} if it cannot be read (the JDK reaped it first, or it has not exited).
     */
    public static int exitStatus(final int fd)
    {
        final Memory info = new Memory(SIGINFO_LENGTH);
        info.clear();
        if (LIBC.library().waitid(P_PIDFD, fd, info, WEXITED | WNOWAIT | WNOHANG) != 0 ||
            info.getInt(SI_PID_OFFSET) == 0)
        {
            return UNKNOWN;
        }
        final int status = info.getInt(SI_STATUS_OFFSET);
        return info.getInt(SI_CODE_OFFSET) == CLD_EXITED ? status : 128 + status;
    }
}
