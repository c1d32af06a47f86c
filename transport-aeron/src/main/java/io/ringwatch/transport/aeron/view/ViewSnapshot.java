package io.ringwatch.transport.aeron.view;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.spi.ExclusionCause;

import java.util.concurrent.TimeUnit;

/**
 * A consistent copy of a node's view file, filled by {@link ViewReader#read(ViewSnapshot)}; reusable.
 */
public final class ViewSnapshot
{
    // process start times come from /proc in clock ticks plus the boot time: equal to well within a second
    private static final long PID_START_TOLERANCE_MS = 1000;

    long pid;
    int clusterId;
    int clusterSize;
    int rank;
    int state;
    long viewEpoch;
    int deadCount;
    int excludedBy;
    int exclusionCause;
    long startNs;
    long excludedAtNs;
    long heartbeatProgress;
    long lastProgressNs;
    int stopCause;
    long stoppedAtMs;
    long pidStartMs;
    long[] bitmap = new long[0];
    long[] detectedAtNs = new long[0];
    int[] cause = new int[0];
    int[] reporter = new int[0];
    long[] incarnation = new long[0];

    void ensureCapacity(final int n)
    {
        if (detectedAtNs.length < n)
        {
            incarnation = new long[n];
            bitmap = new long[ViewLayout.bitmapWords(n)];
            detectedAtNs = new long[n];
            cause = new int[n];
            reporter = new int[n];
        }
    }

    /**
     * @return pid of the writing process.
     */
    public long pid()
    {
        return pid;
    }

    /**
     * @return cluster id.
     */
    public int clusterId()
    {
        return clusterId;
    }

    /**
     * @return N.
     */
    public int clusterSize()
    {
        return clusterSize;
    }

    /**
     * @return the node's rank.
     */
    public int rank()
    {
        return rank;
    }

    /**
     * @return the node's state, or null if the file holds a code this version does not know.
     */
    public NodeState state()
    {
        return NodeState.ofCode(state);
    }

    /**
     * @return why the node stopped, or null while it is active.
     */
    public ExclusionCause exclusionCause()
    {
        return ExclusionCause.ofCode(exclusionCause);
    }

    /**
     * @return view epoch.
     */
    public long viewEpoch()
    {
        return viewEpoch;
    }

    /**
     * @return size of the dead set.
     */
    public int deadCount()
    {
        return deadCount;
    }

    /**
     * @return who excluded this node (itself after a leave), -1 while active.
     */
    public int excludedBy()
    {
        return excludedBy;
    }

    /**
     * @return node start time, nanoTime of its host.
     */
    public long startNs()
    {
        return startNs;
    }

    /**
     * @return when the node stopped taking part, 0 while active.
     */
    public long excludedAtNs()
    {
        return excludedAtNs;
    }

    /**
     * @return heartbeat progress the node has seen from its emitters.
     */
    public long heartbeatProgress()
    {
        return heartbeatProgress;
    }

    /**
     * @return when the progress last moved.
     */
    public long lastProgressNs()
    {
        return lastProgressNs;
    }

    /**
     * @param r rank.
     * @return true if {@code r} is in this view's dead set.
     */
    public boolean isDead(final int r)
    {
        return (bitmap[r >>> 6] & (1L << (r & 63))) != 0;
    }

    /**
     * @param r a dead rank.
     * @return when this node learned of it.
     */
    public long detectedAtNs(final int r)
    {
        return detectedAtNs[r];
    }

    /**
     * @param r a rank.
     * @return the incarnation this view admitted for it: 0 (boot) unless it rejoined.
     */
    public long incarnation(final int r)
    {
        return incarnation[r];
    }

    /**
     * @param r a rank.
     * @return how this view learned about it: a {@link ViewLayout} cause code, {@link ViewLayout#CAUSE_JOINED} for a
     * rank alive again under a new incarnation.
     */
    public int cause(final int r)
    {
        return cause[r];
    }

    /**
     * @param r a dead rank.
     * @return who reported it (the detector, the broadcast source or the leaver).
     */
    public int reporter(final int r)
    {
        return reporter[r];
    }

    /**
     * @return why the node stopped: {@link ViewLayout#STOP_NONE} while it runs (or if it died without saying), else
     * {@link ViewLayout#STOP_CLOSED} or {@link ViewLayout#STOP_START_FAILED}; its state says more.
     */
    public int stopCause()
    {
        return stopCause;
    }

    /**
     * @return wall-clock time (ms since the epoch) when it stopped, 0 while it runs.
     */
    public long stoppedAtMs()
    {
        return stoppedAtMs;
    }

    /**
     * Whether the process that wrote the view still runs: its pid is alive and, where the writer recorded its start
     * time, started then (not a later process given the same pid). Asks the operating system: not for a hot loop.
     *
     * @return false once the writer is gone, whatever its last state says.
     */
    public boolean writerAlive()
    {
        final ProcessHandle writer = ProcessHandle.of(pid).orElse(null);
        if (writer == null || !writer.isAlive())
        {
            return false;
        }
        return pidStartMs == 0 || writer.info().startInstant()
            .map(started -> Math.abs(started.toEpochMilli() - pidStartMs) < PID_START_TOLERANCE_MS).orElse(true);
    }

    /**
     * @return human-readable state: for a node that stopped, why; for a running state whose writer is gone (killed,
     * crashed), that it is dead, since its view froze then.
     */
    public String stateName()
    {
        final NodeState known = NodeState.ofCode(state);
        if (known == null)
        {
            return "UNKNOWN(" + state + ")";
        }
        final ExclusionCause cause = exclusionCause();
        final String name = cause == null || known == NodeState.LEFT ? known.name() : known.name() + " (" + cause + ")";
        if (known == NodeState.EXCLUDED || known == NodeState.LEFT)
        {
            return name;
        }
        if (stopCause != ViewLayout.STOP_NONE)
        {
            return "STOPPED (" + ViewLayout.stopCauseName(stopCause) + ", was " + name + ")";
        }
        return writerAlive() ? name : "DEAD (pid " + pid + " gone without stopping, was " + name + ")";
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("rank=").append(rank).append(" pid=").append(pid)
            .append(" incarnation=").append(rank >= 0 && rank < clusterSize ? incarnation[rank] : 0)
            .append(" state=").append(stateName());
        if (excludedAtNs != 0)
        {
            // when (since this node's own start) and by whom: orders a cascade of exclusions
            sb.append(" by ").append(excludedBy).append(" at +")
                .append(TimeUnit.NANOSECONDS.toMillis(excludedAtNs - startNs)).append("ms");
        }
        if (stoppedAtMs != 0)
        {
            sb.append(" stopped=").append(java.time.Instant.ofEpochMilli(stoppedAtMs));
        }
        sb.append(" epoch=").append(viewEpoch).append(" dead=").append(deadCount).append(" {");
        String sep = "";
        for (int r = 0; r < clusterSize; r++)
        {
            if (isDead(r))
            {
                sb.append(sep).append(r).append(':').append(ViewLayout.causeName(cause[r])).append("@").append(reporter[r]);
                sep = ", ";
            }
        }
        sb.append("} joined {");
        sep = "";
        for (int r = 0; r < clusterSize; r++)
        {
            if (!isDead(r) && cause[r] == ViewLayout.CAUSE_JOINED)
            {
                sb.append(sep).append(r).append(":incarnation ").append(incarnation[r]);
                sep = ", ";
            }
        }
        return sb.append("} heartbeatProgress=").append(heartbeatProgress).toString();
    }
}
