package io.ringwatch.perf.nemesis;

/**
 * One process of a rank, from its launch by the supervisor to its exit, on the host's monotonic clock.
 *
 * @param rank     the rank.
 * @param pid      its process.
 * @param startNs  launched.
 * @param endNs    exited, or {@link Long#MAX_VALUE} if it still ran when the run ended.
 * @param exitCode its exit code (128 + signal when a signal ended it), or -1 if it still ran.
 * @param log      what its log shows that no node should print (exceptions), "" if nothing.
 */
public record Life(int rank, long pid, long startNs, long endNs, int exitCode, String log)
{
    /** The JVM's exit code for SIGKILL. */
    public static final int SIGKILLED = 137;

    /**
     * @return whether it still ran when the run ended.
     */
    public boolean running()
    {
        return endNs == Long.MAX_VALUE;
    }

    /**
     * @param atNs a time.
     * @return whether the process ran then.
     */
    public boolean runningAt(final long atNs)
    {
        return startNs <= atNs && atNs < endNs;
    }
}
