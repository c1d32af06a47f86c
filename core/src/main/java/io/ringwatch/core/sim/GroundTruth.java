package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.RankArray;

import java.util.Arrays;

/**
 * What really happened to each rank, as opposed to what the nodes believe: whether it runs, is paused or stopped,
 * the incarnation of its current life, when it stopped and why; and, event by event, which live nodes already hold
 * the right view and ring links, so the run knows the instant the configuration becomes stable.
 * <p>
 * The state touched by every event is one 64-byte record per node in one array ({@link #cells}): at 256k nodes the
 * run is bound by cache misses, and separate arrays would cost one miss each. The record also holds the node's
 * heartbeat slot and pending wake-up, which the {@link Simulation} reads and writes through this class.
 */
final class GroundTruth extends NodeViews
{
    static final long NONE = -1;

    private static final byte RUNNING = 0;
    private static final byte PAUSED = 1;
    private static final byte CRASHED = 2;
    private static final byte STOPPED = 3;

    private static final int CELL = 8;
    private static final int STATUS = 0;
    private static final int SLOT_COUNTER = 1;
    private static final int SLOT_WRITER = 2;
    private static final int WAKE_SEQ = 3;
    private static final int WAKE_TIME = 4;
    private static final int SEEN_EPOCH = 5;
    private static final int SEEN_LINKS = 6;
    // bit 0: the node is stable; above it, the size of its dead set when last seen (after each call into it), so a
    // change of the ground truth can rule out the nodes whose view cannot match without touching them
    private static final int STABLE = 7;

    private final int n;
    private final DetectorNode[] nodes;
    private final Network network;
    private final long[] cells;
    private final long[] resumeAtNs;
    private final long[] lastResumeNs;
    private final long[] stoppedAtNs;
    private final ExclusionCause[] exclusionCauses;
    // for the majority checker: who ever crashed, and each rank's first exclusion
    private final boolean[] crashedEver;
    private final long[] firstExcludedNs;
    private final ExclusionCause[] firstExclusionCauses;
    // the incarnation of each rank's current (or last) life
    private final long[] incarnations;
    // ranks restarted at least once, in order: a node is stable only once it knows each one's current life
    private final RankArray restarted = new RankArray(8);

    private int stableCount;
    private int liveCount;
    private int stoppedCount;
    private boolean changed;

    /**
     * @param nodes   the nodes, one per rank; the simulator replaces a rank's node when it restarts.
     * @param network for which links were cut.
     */
    GroundTruth(final DetectorNode[] nodes, final Network network)
    {
        super(nodes);
        n = nodes.length;
        this.nodes = nodes;
        this.network = network;
        cells = new long[n * CELL];
        for (int rank = 0; rank < n; rank++)
        {
            cells[rank * CELL + STATUS] = RUNNING;
            cells[rank * CELL + SLOT_WRITER] = -1;
            cells[rank * CELL + WAKE_SEQ] = NONE;
        }
        resumeAtNs = new long[n];
        lastResumeNs = new long[n];
        Arrays.fill(lastResumeNs, NONE);
        stoppedAtNs = new long[n];
        Arrays.fill(stoppedAtNs, NONE);
        exclusionCauses = new ExclusionCause[n];
        crashedEver = new boolean[n];
        firstExcludedNs = new long[n];
        Arrays.fill(firstExcludedNs, NONE);
        firstExclusionCauses = new ExclusionCause[n];
        incarnations = new long[n];
        liveCount = n;
    }

    /**
     * A rank that starts later than the cluster: stopped until then.
     */
    void notStarted(final int rank)
    {
        cells[rank * CELL + STATUS] = STOPPED;
        liveCount--;
        stoppedCount++;
    }

    boolean isRunning(final int rank)
    {
        return cells[rank * CELL + STATUS] == RUNNING;
    }

    /**
     * @return when the paused rank resumes.
     */
    long resumeAtNs(final int rank)
    {
        return resumeAtNs[rank];
    }

    void crashed(final int rank, final long nowNs)
    {
        cells[rank * CELL + STATUS] = CRASHED;
        cells[rank * CELL + WAKE_SEQ] = NONE;
        crashedEver[rank] = true;
        stopped(rank, nowNs);
    }

    /**
     * The rank stopped taking part on its own: it left, or it excluded itself.
     *
     * @param excludedAtNs when the node says it stopped.
     * @param nowNs        the event's time.
     */
    void excluded(final int rank, final ExclusionCause cause, final long excludedAtNs, final long nowNs)
    {
        exclusionCauses[rank] = cause;
        if (cause != ExclusionCause.LEFT && firstExcludedNs[rank] == NONE)
        {
            firstExcludedNs[rank] = excludedAtNs;
            firstExclusionCauses[rank] = cause;
        }
        cells[rank * CELL + STATUS] = STOPPED;
        cells[rank * CELL + WAKE_SEQ] = NONE;
        stopped(rank, nowNs);
    }

    private void stopped(final int rank, final long nowNs)
    {
        stoppedAtNs[rank] = nowNs;
        stoppedCount++;
        liveCount--;
        markUnstable(rank);
        changed = true;
    }

    void paused(final int rank, final long untilNs)
    {
        cells[rank * CELL + STATUS] = PAUSED;
        cells[rank * CELL + WAKE_SEQ] = NONE;
        resumeAtNs[rank] = untilNs;
    }

    void resumed(final int rank, final long nowNs)
    {
        cells[rank * CELL + STATUS] = RUNNING;
        lastResumeNs[rank] = nowNs;
    }

    /**
     * A stopped rank runs again, as a new life whose slot starts empty.
     *
     * @param incarnation its incarnation.
     * @param counted     whether it counts as a rank restarted, whose current life every node must know.
     */
    void restarted(final int rank, final long incarnation, final boolean counted)
    {
        incarnations[rank] = incarnation;
        if (counted)
        {
            restarted.add(rank);
        }
        final int cell = rank * CELL;
        cells[cell + STATUS] = RUNNING;
        cells[cell + SLOT_COUNTER] = 0;
        cells[cell + SLOT_WRITER] = -1;
        cells[cell + WAKE_SEQ] = NONE;
        exclusionCauses[rank] = null;
        lastResumeNs[rank] = NONE;
        stoppedAtNs[rank] = NONE;
        stoppedCount--;
        liveCount++;
        changed = true;
    }

    /**
     * A heartbeat lands in the rank's slot, overwriting the one before.
     */
    void heartbeat(final int rank, final int from, final long counter)
    {
        cells[rank * CELL + SLOT_COUNTER] = counter;
        cells[rank * CELL + SLOT_WRITER] = from;
    }

    long slotCounter(final int rank)
    {
        return cells[rank * CELL + SLOT_COUNTER];
    }

    int slotWriter(final int rank)
    {
        return (int)cells[rank * CELL + SLOT_WRITER];
    }

    /**
     * @return the sequence of the rank's pending wake-up event, or {@link #NONE}.
     */
    long wakeSeq(final int rank)
    {
        return cells[rank * CELL + WAKE_SEQ];
    }

    long wakeTimeNs(final int rank)
    {
        return cells[rank * CELL + WAKE_TIME];
    }

    void wake(final int rank, final long atNs, final long seq)
    {
        cells[rank * CELL + WAKE_TIME] = atNs;
        cells[rank * CELL + WAKE_SEQ] = seq;
    }

    void noWake(final int rank)
    {
        cells[rank * CELL + WAKE_SEQ] = NONE;
    }

    /**
     * @return whether a stop or a restart changed the truth since the last call: every node's stability is then
     * judged again.
     */
    boolean takeChange()
    {
        final boolean was = changed;
        changed = false;
        return was;
    }

    /**
     * After the simulator called into a running node: judge it again if what it holds may have changed.
     */
    void afterCall(final int rank)
    {
        final DetectorNode node = nodes[rank];
        // a joiner is confirmed by its neighbours without a change of view or links: look again until it is
        if (node.viewEpoch() != cells[rank * CELL + SEEN_EPOCH] || links(node) != cells[rank * CELL + SEEN_LINKS] ||
            !isStable(rank) && incarnations[rank] > 0)
        {
            refreshStable(rank);
        }
        else
        {
            seenDeadSize(rank, node.deadSet().size());
        }
    }

    private static long links(final DetectorNode node)
    {
        return ((long)node.emitter() << 32) | (node.observer() & 0xFFFF_FFFFL);
    }

    void refreshStable(final int rank)
    {
        final DetectorNode node = nodes[rank];
        cells[rank * CELL + SEEN_EPOCH] = node.viewEpoch();
        cells[rank * CELL + SEEN_LINKS] = links(node);
        seenDeadSize(rank, node.deadSet().size());
        final boolean nowStable = Checks.isNodeStable(this, rank, stoppedCount) && knowsCurrentLives(rank);
        if (nowStable != isStable(rank))
        {
            cells[rank * CELL + STABLE] ^= 1;
            stableCount += nowStable ? 1 : -1;
        }
    }

    private boolean isStable(final int rank)
    {
        return (cells[rank * CELL + STABLE] & 1) != 0;
    }

    private void markUnstable(final int rank)
    {
        if (isStable(rank))
        {
            cells[rank * CELL + STABLE] ^= 1;
            stableCount--;
        }
    }

    private void seenDeadSize(final int rank, final int size)
    {
        cells[rank * CELL + STABLE] = (long)size << 1 | (cells[rank * CELL + STABLE] & 1);
    }

    /**
     * @return true if the node has taken part since its last restart (if any) and holds every running restarted rank
     * at its current incarnation: dead sets alone cannot tell a rank's old life from its new one.
     */
    private boolean knowsCurrentLives(final int rank)
    {
        if (restarted.size() == 0)
        {
            return true;
        }
        final DetectorNode node = nodes[rank];
        if (!isAdmitted(rank))
        {
            return false;
        }
        for (int i = 0, size = restarted.size(); i < size; i++)
        {
            final int r = restarted.rankAt(i);
            if (!isStopped(r) && node.incarnationOf(r) != incarnations[r])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * After a change of the ground truth. A node whose dead set is not the size of the stopped set cannot be stable
     * ({@link Checks#isNodeStable}); its size as seen after its last call is still its size (nothing changes a node
     * between calls), so such nodes are ruled out from the cells alone: a crash in a million-node run would otherwise
     * visit every node's objects.
     */
    void refreshAllStable()
    {
        for (int rank = 0; rank < n; rank++)
        {
            if (isStopped(rank))
            {
                continue;
            }
            if (cells[rank * CELL + STABLE] >>> 1 != stoppedCount)
            {
                markUnstable(rank);
            }
            else
            {
                refreshStable(rank);
            }
        }
    }

    /**
     * @return true if every live node is stable.
     */
    boolean allStable()
    {
        return stableCount == liveCount;
    }

    int stableCount()
    {
        return stableCount;
    }

    int liveCount()
    {
        return liveCount;
    }

    /**
     * @return true if the rank stopped by excluding itself (not a crash or a leave) and has not come back.
     */
    boolean isExcluded(final int rank)
    {
        return cells[rank * CELL + STATUS] == STOPPED && exclusionCauses[rank] != ExclusionCause.LEFT;
    }

    /**
     * @return per rank, when it stopped, or {@link #NONE} if it runs; read only.
     */
    long[] stoppedAtNs()
    {
        return stoppedAtNs;
    }

    /**
     * @return per rank, whether it ever crashed; read only.
     */
    boolean[] crashedEver()
    {
        return crashedEver;
    }

    /**
     * @return per rank, when it was first excluded (a leave aside), or {@link #NONE}; read only.
     */
    long[] firstExcludedNs()
    {
        return firstExcludedNs;
    }

    /**
     * @return per rank, the cause of its first exclusion; read only.
     */
    ExclusionCause[] firstExclusionCauses()
    {
        return firstExclusionCauses;
    }

    public boolean isStopped(final int rank)
    {
        return cells[rank * CELL + STATUS] >= CRASHED;
    }

    public boolean isPaused(final int rank)
    {
        return cells[rank * CELL + STATUS] == PAUSED;
    }

    public long lastResumeNs(final int rank)
    {
        return lastResumeNs[rank] == NONE ? NEVER : lastResumeNs[rank];
    }

    public boolean wasCut(final int from, final int to, final long fromNs, final long untilNs)
    {
        return network.wasCut(from, to, fromNs, untilNs);
    }

    /**
     * @param rank a rank.
     * @return why it stopped taking part, or null if it did not (or crashed).
     */
    ExclusionCause exclusionCause(final int rank)
    {
        return exclusionCauses[rank];
    }

    public long incarnation(final int rank)
    {
        return incarnations[rank];
    }
}
