package io.ringwatch.core.protocol;

/**
 * The incarnation a node starts under, by the rule its {@link BootPlan} implies; the runtime supplies what only it
 * can read (its pid, the last incarnation it recorded for the rank, the wall clock) and keeps the record.
 * <p>
 * A node that takes part at once ({@link BootPlan#MEMBER}, {@link BootPlan#SEED}) starts under its process id:
 * distinct per process start, as no two live processes of a host share one, and below 2^22. A joiner
 * ({@link BootPlan#joins()}) takes {@code max(last + 1, seconds since the epoch)}: greater than every incarnation the
 * rank used before, so the cluster admits it as a new life. The clock alone beats every boot incarnation and every
 * earlier life started more than a second before; the record covers two restarts within one second and a clock
 * stepped back.
 */
public final class StartIncarnation
{
    private StartIncarnation()
    {
    }

    /**
     * @param pid the process id.
     * @return the incarnation of a node that takes part at once.
     */
    public static long ofProcess(final long pid)
    {
        if (pid <= 0 || pid > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("not a process id: " + pid);
        }
        return pid;
    }

    /**
     * @param lastRecorded the last incarnation recorded for the rank, 0 if none.
     * @param epochSeconds seconds since the epoch now.
     * @return {@code max(last + 1, epochSeconds)}, at most {@link Integer#MAX_VALUE}.
     */
    public static long ofJoiner(final long lastRecorded, final long epochSeconds)
    {
        return Math.min(Integer.MAX_VALUE, Math.max(lastRecorded + 1L, epochSeconds));
    }
}
