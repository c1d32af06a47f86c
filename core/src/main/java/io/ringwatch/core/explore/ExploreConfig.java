package io.ringwatch.core.explore;

import io.ringwatch.core.protocol.BrokenRules;
import io.ringwatch.core.protocol.ProtocolSettings;

import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

/**
 * Parameters of a bounded exhaustive exploration: the cluster, its timing, the fault budget and the bounds.
 * Fluent and mutable, like {@code SimConfig}; times in nanoseconds of virtual time.
 */
public final class ExploreConfig
{
    /** Fault kinds, as bits of {@link #faultKinds(int)}. */
    public static final int CRASH = 1;
    /** A stopped rank comes back as a new incarnation and joins. */
    public static final int RESTART = 1 << 1;
    /** A node stops running (and beating) for {@link #pauseNs()}, longer than δ. */
    public static final int PAUSE = 1 << 2;
    /** The cluster is cut in two both ways for {@link #cutNs()}, then heals. */
    public static final int CUT = 1 << 3;
    /** One in-flight control message is lost. */
    public static final int LOSE = 1 << 4;
    /** Every kind. */
    public static final int ALL = CRASH | RESTART | PAUSE | CUT | LOSE;

    private static final String[] KIND_NAMES = {"crash", "restart", "pause", "cut", "lose"};

    private int nodes = 3;
    private int faults = 2;
    private int faultKinds = ALL;
    private long heartbeatPeriodNs = 10_000_000L;
    private long suspicionTimeoutNs = 30_000_000L;
    private long maxDelayNs = 3_000_000L;
    private long pauseNs = -1;
    private long cutNs = -1;
    private long livenessNs = -1;
    private int maxDepth = 3_000;
    private long maxStates = Long.MAX_VALUE;
    private int brokenRules;
    private long startupGraceNs;
    private long restartAfterNs = -1;
    private Set<Integer> cutSides;
    private long flapUpNs = -1;
    private long faultsFromNs;
    private long faultsUntilNs = Long.MAX_VALUE;
    private long viewDigestPeriodNs = -1;
    private int dedupCapacity = ProtocolSettings.DEFAULT_DEDUP_CAPACITY;
    private boolean keepGoing;

    /**
     * @param names comma-separated kinds: crash, restart, pause, cut, lose.
     * @return their mask.
     * @throws IllegalArgumentException naming an unknown kind.
     */
    public static int faultKindsNamed(final String names)
    {
        int mask = 0;
        for (final String name : names.split(","))
        {
            if (name.isBlank())
            {
                continue;
            }
            final int bit = Arrays.asList(KIND_NAMES).indexOf(name.trim());
            if (bit < 0)
            {
                throw new IllegalArgumentException("unknown fault kind '" + name.trim() + "', expected one of " +
                    String.join(", ", KIND_NAMES));
            }
            mask |= 1 << bit;
        }
        return mask;
    }

    /**
     * @param mask fault kinds.
     * @return their names, comma-separated.
     */
    public static String faultKindNames(final int mask)
    {
        final StringBuilder names = new StringBuilder();
        for (int bit = 0; bit < KIND_NAMES.length; bit++)
        {
            if ((mask & 1 << bit) != 0)
            {
                names.append(names.length() > 0 ? "," : "").append(KIND_NAMES[bit]);
            }
        }
        return names.toString();
    }

    /**
     * @return the settings every node runs.
     */
    public ProtocolSettings settings()
    {
        // as ProtocolSettings.of, with the dedup capacity
        final ProtocolSettings settings = new ProtocolSettings(nodes, heartbeatPeriodNs, suspicionTimeoutNs,
            suspicionTimeoutNs / 2, startupGraceNs, dedupCapacity).withBrokenRules(brokenRules);
        return viewDigestPeriodNs >= 0 ? settings.withViewDigestPeriodNs(viewDigestPeriodNs) : settings;
    }

    public int nodes()
    {
        return nodes;
    }

    /**
     * @param nodes N, 2 to 8 (the fingerprint packs a cut side into a byte).
     * @return this.
     */
    public ExploreConfig nodes(final int nodes)
    {
        if (nodes < 2 || nodes > 8)
        {
            throw new IllegalArgumentException("nodes must be in [2, 8]: " + nodes);
        }
        this.nodes = nodes;
        return this;
    }

    public int faults()
    {
        return faults;
    }

    /**
     * @param faults how many faults one execution may suffer (a restart and a cut with its heal count one each).
     * @return this.
     */
    public ExploreConfig faults(final int faults)
    {
        if (faults < 0)
        {
            throw new IllegalArgumentException("faults must be >= 0: " + faults);
        }
        this.faults = faults;
        return this;
    }

    public int faultKinds()
    {
        return faultKinds;
    }

    /**
     * @param mask the kinds of fault the explorer may inject; default {@link #ALL}.
     * @return this.
     */
    public ExploreConfig faultKinds(final int mask)
    {
        this.faultKinds = mask;
        return this;
    }

    public long heartbeatPeriodNs()
    {
        return heartbeatPeriodNs;
    }

    /**
     * @param periodNs η; default 10 ms.
     * @return this.
     */
    public ExploreConfig heartbeatPeriodNs(final long periodNs)
    {
        this.heartbeatPeriodNs = periodNs;
        return this;
    }

    public long suspicionTimeoutNs()
    {
        return suspicionTimeoutNs;
    }

    /**
     * @param timeoutNs δ; default 30 ms (3η: few heartbeats per suspicion keep executions short).
     * @return this.
     */
    public ExploreConfig suspicionTimeoutNs(final long timeoutNs)
    {
        this.suspicionTimeoutNs = timeoutNs;
        return this;
    }

    public long maxDelayNs()
    {
        return maxDelayNs;
    }

    /**
     * @param delayNs τ, the longest a message may be in flight; default 3 ms (η ≥ 3τ, as the paper asks).
     * @return this.
     */
    public ExploreConfig maxDelayNs(final long delayNs)
    {
        this.maxDelayNs = delayNs;
        return this;
    }

    public long pauseNs()
    {
        return pauseNs >= 0 ? pauseNs : 2 * suspicionTimeoutNs;
    }

    /**
     * @param pauseNs how long a paused node stays silent; default 2δ.
     * @return this.
     */
    public ExploreConfig pauseNs(final long pauseNs)
    {
        this.pauseNs = pauseNs;
        return this;
    }

    public long cutNs()
    {
        return cutNs >= 0 ? cutNs : 2 * suspicionTimeoutNs;
    }

    /**
     * @param cutNs how long a cut lasts before it heals; default 2δ.
     * @return this.
     */
    public ExploreConfig cutNs(final long cutNs)
    {
        this.cutNs = cutNs;
        return this;
    }

    public long livenessNs()
    {
        return livenessNs >= 0 ? livenessNs : 30 * suspicionTimeoutNs;
    }

    /**
     * @param livenessNs after the last fault heals, every execution must be whole within this; default 30δ
     *                   (a re-form alone takes a few leases of 4δ).
     * @return this.
     */
    public ExploreConfig livenessNs(final long livenessNs)
    {
        this.livenessNs = livenessNs;
        return this;
    }

    public int maxDepth()
    {
        return maxDepth;
    }

    /**
     * @param maxDepth steps after which an execution is cut off unexplored (counted, reported).
     * @return this.
     */
    public ExploreConfig maxDepth(final int maxDepth)
    {
        this.maxDepth = maxDepth;
        return this;
    }

    public long maxStates()
    {
        return maxStates;
    }

    /**
     * @param maxStates distinct states after which the search stops, reported as incomplete.
     * @return this.
     */
    public ExploreConfig maxStates(final long maxStates)
    {
        this.maxStates = maxStates;
        return this;
    }

    public int brokenRules()
    {
        return brokenRules;
    }

    /**
     * @param mask {@code BrokenRules.BREAK_*} bits: negative controls only.
     * @return this.
     */
    public ExploreConfig brokenRules(final int mask)
    {
        this.brokenRules = mask;
        return this;
    }

    public long startupGraceNs()
    {
        return startupGraceNs;
    }

    /**
     * @param graceNs every node's startup grace; default 0.
     * @return this.
     */
    public ExploreConfig startupGraceNs(final long graceNs)
    {
        this.startupGraceNs = graceNs;
        return this;
    }

    public long restartAfterNs()
    {
        return restartAfterNs;
    }

    /**
     * @param afterNs every rank that stops (a crash or an exclusion) restarts this long after, as simulate's
     *                --restart-after, without spending the budget (restarts are then not chosen as faults);
     *                -1 (default) for none.
     * @return this.
     */
    public ExploreConfig restartAfterNs(final long afterNs)
    {
        this.restartAfterNs = afterNs;
        return this;
    }

    public Set<Integer> cutSides()
    {
        return cutSides;
    }

    /**
     * @param text the cuts to try, comma-separated, each the ranks of one side joined by '+' ({@code 0+1,2} tries
     *             {0,1} against the rest and {2} against the rest); empty (default) for every bipartition.
     * @return this.
     * @throws IllegalArgumentException on a rank outside the cluster or a side that is the whole cluster.
     */
    public ExploreConfig cutSides(final String text)
    {
        if (text.isBlank())
        {
            cutSides = null;
            return this;
        }
        final Set<Integer> sides = new TreeSet<>();
        for (final String side : text.split(","))
        {
            int mask = 0;
            for (final String rank : side.trim().split("\\+"))
            {
                final int r = Integer.parseInt(rank.trim());
                if (r < 0 || r >= nodes)
                {
                    throw new IllegalArgumentException("cut side " + side + ": no rank " + r);
                }
                mask |= 1 << r;
            }
            // the explorer names a bipartition by its side without the highest rank
            final int all = (1 << nodes) - 1;
            final int named = (mask & 1 << (nodes - 1)) != 0 ? all & ~mask : mask;
            if (named == 0)
            {
                throw new IllegalArgumentException("cut side " + side + " leaves nobody on the other side");
            }
            sides.add(named);
        }
        cutSides = sides;
        return this;
    }

    public long flapUpNs()
    {
        return flapUpNs;
    }

    /**
     * @param upNs -1 (default): cuts go anywhere; otherwise the cut flaps: every cut after the first cuts the first
     *             one's sides again and starts within this of the last heal (the link was up for at most this long).
     * @return this.
     */
    public ExploreConfig flapUpNs(final long upNs)
    {
        this.flapUpNs = upNs;
        return this;
    }

    public long faultsFromNs()
    {
        return faultsFromNs;
    }

    public long faultsUntilNs()
    {
        return faultsUntilNs;
    }

    /**
     * Confines the faults the explorer chooses (not the heals, resumptions and automatic restarts they bring) to a
     * window of virtual time: a targeted search that leaves out the placements outside it.
     *
     * @param fromNs  no fault before this; default 0.
     * @param untilNs no fault after this; default no bound.
     * @return this.
     */
    public ExploreConfig faultWindowNs(final long fromNs, final long untilNs)
    {
        if (fromNs < 0 || untilNs < fromNs)
        {
            throw new IllegalArgumentException("fault window must be 0 <= from <= until: " + fromNs + ", " + untilNs);
        }
        this.faultsFromNs = fromNs;
        this.faultsUntilNs = untilNs;
        return this;
    }

    public long viewDigestPeriodNs()
    {
        return viewDigestPeriodNs;
    }

    /**
     * @param periodNs the view repair's digest period; -1 (default) for the protocol's default (4δ).
     * @return this.
     */
    public ExploreConfig viewDigestPeriodNs(final long periodNs)
    {
        this.viewDigestPeriodNs = periodNs;
        return this;
    }

    public int dedupCapacity()
    {
        return dedupCapacity;
    }

    /**
     * @param capacity broadcast ids each node remembers; default {@link ProtocolSettings#DEFAULT_DEDUP_CAPACITY}
     *                 (fewer scale a storm of broadcasts down to a few nodes).
     * @return this.
     */
    public ExploreConfig dedupCapacity(final int capacity)
    {
        this.dedupCapacity = capacity;
        return this;
    }

    public boolean keepGoing()
    {
        return keepGoing;
    }

    /**
     * @param keepGoing false (default) to stop at the first violation; true to go on past violating states (not
     *                  exploring beyond them) and report the first trace of each kind of violation.
     * @return this.
     */
    public ExploreConfig keepGoing(final boolean keepGoing)
    {
        this.keepGoing = keepGoing;
        return this;
    }

    public String toString()
    {
        return "nodes=" + nodes + " faults=" + faults + " kinds=" + faultKindNames(faultKinds) +
            " eta=" + heartbeatPeriodNs / 1_000_000.0 + "ms delta=" + suspicionTimeoutNs / 1_000_000.0 +
            "ms tau=" + maxDelayNs / 1_000_000.0 + "ms pause=" + pauseNs() / 1_000_000.0 + "ms cut=" +
            cutNs() / 1_000_000.0 + "ms liveness=" + livenessNs() / 1_000_000.0 + "ms grace=" + startupGraceNs / 1_000_000.0 + "ms" +
            (restartAfterNs >= 0 ? " restartAfter=" + restartAfterNs / 1_000_000.0 + "ms" : "") +
            (flapUpNs >= 0 ? " flapUp=" + flapUpNs / 1_000_000.0 + "ms" : "") +
            (faultsFromNs > 0 || faultsUntilNs != Long.MAX_VALUE ? " faultWindow=" + faultsFromNs / 1_000_000.0 +
                "-" + (faultsUntilNs == Long.MAX_VALUE ? "" : faultsUntilNs / 1_000_000.0) + "ms" : "") +
            (viewDigestPeriodNs >= 0 ? " viewDigest=" + viewDigestPeriodNs / 1_000_000.0 + "ms" : "") +
            (dedupCapacity != ProtocolSettings.DEFAULT_DEDUP_CAPACITY ? " dedup=" + dedupCapacity : "") +
            " maxDepth=" + maxDepth;
    }
}
