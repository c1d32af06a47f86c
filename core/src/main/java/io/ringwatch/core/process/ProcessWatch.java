package io.ringwatch.core.process;

import java.util.Arrays;

/**
 * What a daemon decides about the end of its own processes, from what its runtime reads: an exit code, a slot's beat
 * and whether the process said it finished. The runtime carries the verdict out: a failure is broadcast to the
 * cluster ({@link ProcessNoticeRelay#recordLocalFailure}), a departure is recorded in the process's slot only.
 * <p>
 * A process that said it finished and then exits with 0 departs; any other exit is a failure. With a watchdog, a
 * process whose beat has not moved for longer than the timeout (hung, or gone without its daemon seeing an exit: a
 * process the daemon did not launch) has ended too: departed if it had said it finished, else failed. A beat is
 * watched from the first time it is read. Pure (the runtime passes the time in); allocation free after construction.
 */
public final class ProcessWatch
{
    /** The process runs on, as far as this rule can tell. */
    public static final int RUNNING = 0;
    /** It failed: announce it. */
    public static final int FAILED = 1;
    /** It departed: it had said it finished. */
    public static final int DEPARTED = 2;

    private static final long NOT_SEEN = Long.MIN_VALUE;

    private final long timeoutNs;
    private final long[] lastBeat;
    private final long[] lastBeatAtNs;

    /**
     * @param processes the daemon's own processes.
     * @param timeoutNs how long a beat may stand still; 0 turns the watchdog off.
     */
    public ProcessWatch(final int processes, final long timeoutNs)
    {
        if (timeoutNs < 0)
        {
            throw new IllegalArgumentException("watchdog timeout must be >= 0: " + timeoutNs);
        }
        this.timeoutNs = timeoutNs;
        lastBeat = new long[timeoutNs > 0 ? processes : 0];
        lastBeatAtNs = new long[lastBeat.length];
        Arrays.fill(lastBeatAtNs, NOT_SEEN);
    }

    /**
     * @param finished the process said it finished before it exited.
     * @param exitCode its exit code.
     * @return {@link #DEPARTED} or {@link #FAILED}.
     */
    public static int onExit(final boolean finished, final int exitCode)
    {
        return finished && exitCode == 0 ? DEPARTED : FAILED;
    }

    /**
     * @return true if beats are watched (a timeout above 0).
     */
    public boolean watching()
    {
        return timeoutNs > 0;
    }

    /**
     * @param index    the process, a local index.
     * @param beat     its slot's heartbeat now.
     * @param finished it said it finished.
     * @param nowNs    the daemon's clock.
     * @return {@link #RUNNING} while its beat moved within the timeout, else {@link #DEPARTED} or {@link #FAILED}.
     */
    public int onBeat(final int index, final long beat, final boolean finished, final long nowNs)
    {
        if (beat != lastBeat[index] || lastBeatAtNs[index] == NOT_SEEN)
        {
            lastBeat[index] = beat;
            lastBeatAtNs[index] = nowNs;
            return RUNNING;
        }
        if (nowNs - lastBeatAtNs[index] > timeoutNs)
        {
            return finished ? DEPARTED : FAILED;
        }
        return RUNNING;
    }
}
