package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;

/**
 * Immutable protocol parameters, validated on construction so a bad value fails where it was given.
 *
 * @param clusterSize        N, the number of ranks at start ({@code 0..N-1}).
 * @param heartbeatPeriodNs  η: heartbeats are due at start + k·η.
 * @param suspicionTimeoutNs δ: an emitter without heartbeat progress for this long is declared dead.
 * @param pauseThresholdNs   a duty cycle later than this past its own deadline means this node was descheduled;
 *                           it then restarts its suspicion window instead of suspecting.
 * @param startupGraceNs     nobody is suspected during this long after the node starts, and the first window
 *                           (waiting for the emitter's first heartbeat) is this much longer: nodes starting at
 *                           different moments on busy hosts do not suspect peers that are still launching.
 * @param dedupCapacity      recent broadcast ids remembered to forward each broadcast once.
 * @param fenceIntervalNs    least time between two fencing notices to the same zombie (a rank this node holds dead
 *                           but still hears from); δ by default, so a lost notice is re-sent within δ.
 * @param partitionPolicy    what a node does when it can no longer count a majority alive.
 * @param probeTimeoutNs     under {@link PartitionPolicy#MAJORITY}, how long a round of probes waits for an answer
 *                           before the next, twice as large, round goes out; default min(η, δ/4). It must cover one
 *                           round trip (2τ), which η does wherever the ring works at all (the paper asks η ≥ 3τ), and
 *                           it bounds what confirming a single crash adds to δ. 0 skips the probes: a suspicion is
 *                           declared at once (a broken rule, only for negative controls).
 * @param settlePeriodNs     the membership a majority is counted of is the live set as of the last time the view had
 *                           been unchanged this long; default (⌊log₂ N⌋ + 4)·δ, longer than a minority takes to learn
 *                           it is one, so that membership never shrinks under a minority still finding out.
 * @param viewDigestPeriodNs how often a node tells both ring neighbours a digest of its view, so that one that missed
 *                           a broadcast (a JOIN crossing another at boot, a notice cut off by a partition) is sent
 *                           the view and catches up; default 4δ. 0 turns this repair off (a broken rule, only for
 *                           negative controls).
 * @param brokenRules        rules switched off on purpose, a mask of {@link BrokenRules} bits: 0 in every real use; a
 *                           negative control sets one to show that its checker fails without the rule.
 */
public record ProtocolSettings(
    int clusterSize,
    long heartbeatPeriodNs,
    long suspicionTimeoutNs,
    long pauseThresholdNs,
    long startupGraceNs,
    int dedupCapacity,
    long fenceIntervalNs,
    PartitionPolicy partitionPolicy,
    long probeTimeoutNs,
    long settlePeriodNs,
    long viewDigestPeriodNs,
    int brokenRules)
{
    /** Largest supported cluster, bounded by the notice encoding and schedule arithmetic. */
    public static final int MAX_CLUSTER_SIZE = 1 << 24;

    /** Default number of remembered broadcast ids. */
    public static final int DEFAULT_DEDUP_CAPACITY = 64;

    /**
     * Validates every field.
     */
    public ProtocolSettings
    {
        if (clusterSize < 1 || clusterSize > MAX_CLUSTER_SIZE)
        {
            throw new IllegalArgumentException(
                "clusterSize must be in [1, " + MAX_CLUSTER_SIZE + "]: " + clusterSize);
        }
        if (heartbeatPeriodNs <= 0)
        {
            throw new IllegalArgumentException("heartbeatPeriodNs must be > 0: " + heartbeatPeriodNs);
        }
        if (suspicionTimeoutNs <= heartbeatPeriodNs)
        {
            throw new IllegalArgumentException("suspicionTimeoutNs (" + suspicionTimeoutNs +
                ") must exceed heartbeatPeriodNs (" + heartbeatPeriodNs + ") or every gap is a suspicion");
        }
        if (pauseThresholdNs <= 0 || pauseThresholdNs >= suspicionTimeoutNs)
        {
            throw new IllegalArgumentException("pauseThresholdNs must be in (0, suspicionTimeoutNs): " +
                pauseThresholdNs);
        }
        if (startupGraceNs < 0)
        {
            throw new IllegalArgumentException("startupGraceNs must be >= 0: " + startupGraceNs);
        }
        if (dedupCapacity < 1)
        {
            throw new IllegalArgumentException("dedupCapacity must be >= 1: " + dedupCapacity);
        }
        if (fenceIntervalNs <= 0)
        {
            throw new IllegalArgumentException("fenceIntervalNs must be > 0: " + fenceIntervalNs);
        }
        if (partitionPolicy == null)
        {
            throw new IllegalArgumentException("partitionPolicy must be set");
        }
        if (probeTimeoutNs < 0 || probeTimeoutNs >= suspicionTimeoutNs)
        {
            throw new IllegalArgumentException("probeTimeoutNs must be in [0, suspicionTimeoutNs): " + probeTimeoutNs);
        }
        if (settlePeriodNs <= suspicionTimeoutNs)
        {
            throw new IllegalArgumentException("settlePeriodNs (" + settlePeriodNs +
                ") must exceed suspicionTimeoutNs (" + suspicionTimeoutNs + ")");
        }
        if (viewDigestPeriodNs < 0)
        {
            throw new IllegalArgumentException("viewDigestPeriodNs must be >= 0: " + viewDigestPeriodNs);
        }
        if (brokenRules < 0)
        {
            throw new IllegalArgumentException("brokenRules must be a mask of BREAK_* bits: " + brokenRules);
        }
    }

    /**
     * @param rule a {@code BREAK_*} bit.
     * @return true if that rule is switched off (a negative control).
     */
    public boolean breaks(final int rule)
    {
        return (brokenRules & rule) != 0;
    }

    /**
     * Settings with the partition defaults: policy {@link PartitionPolicy#MAJORITY}, probe timeout min(η, δ/4),
     * settle period (⌊log₂ N⌋ + 4)·δ.
     *
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @param pauseThresholdNs   pause threshold.
     * @param startupGraceNs     startup grace.
     * @param dedupCapacity      remembered broadcast ids.
     * @param fenceIntervalNs    fence interval.
     */
    public ProtocolSettings(
        final int clusterSize,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs,
        final long pauseThresholdNs,
        final long startupGraceNs,
        final int dedupCapacity,
        final long fenceIntervalNs)
    {
        this(clusterSize, heartbeatPeriodNs, suspicionTimeoutNs, pauseThresholdNs, startupGraceNs, dedupCapacity,
            fenceIntervalNs, PartitionPolicy.MAJORITY, defaultProbeTimeoutNs(heartbeatPeriodNs, suspicionTimeoutNs),
            defaultSettlePeriodNs(clusterSize, suspicionTimeoutNs), defaultViewDigestPeriodNs(suspicionTimeoutNs), 0);
    }

    /**
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @return min(η, δ/4), at least 1 ns.
     */
    public static long defaultProbeTimeoutNs(final long heartbeatPeriodNs, final long suspicionTimeoutNs)
    {
        return Math.max(1, Math.min(heartbeatPeriodNs, suspicionTimeoutNs / 4));
    }

    /**
     * @param clusterSize        N.
     * @param suspicionTimeoutNs δ.
     * @return (⌊log₂ N⌋ + 4)·δ.
     */
    public static long defaultSettlePeriodNs(final int clusterSize, final long suspicionTimeoutNs)
    {
        final int log2 = 31 - Integer.numberOfLeadingZeros(Math.max(1, clusterSize));
        return (log2 + 4L) * suspicionTimeoutNs;
    }

    /**
     * Settings with the defaults for what is not given: fence interval δ.
     *
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @param pauseThresholdNs   pause threshold.
     * @param startupGraceNs     startup grace.
     * @param dedupCapacity      remembered broadcast ids.
     */
    public ProtocolSettings(
        final int clusterSize,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs,
        final long pauseThresholdNs,
        final long startupGraceNs,
        final int dedupCapacity)
    {
        this(clusterSize, heartbeatPeriodNs, suspicionTimeoutNs, pauseThresholdNs, startupGraceNs, dedupCapacity,
            suspicionTimeoutNs);
    }

    /**
     * Settings with defaults for the rest: pause threshold δ/2, no startup grace, default dedup capacity, fence
     * interval δ.
     *
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @return validated settings.
     */
    public static ProtocolSettings of(final int clusterSize, final long heartbeatPeriodNs, final long suspicionTimeoutNs)
    {
        return new ProtocolSettings(
            clusterSize, heartbeatPeriodNs, suspicionTimeoutNs, suspicionTimeoutNs / 2, 0, DEFAULT_DEDUP_CAPACITY);
    }

    /**
     * @param graceNs startup grace.
     * @return a copy with the given startup grace.
     */
    public ProtocolSettings withStartupGraceNs(final long graceNs)
    {
        return toBuilder().startupGraceNs(graceNs).build();
    }

    /**
     * @param thresholdNs pause threshold.
     * @return a copy with the given pause threshold.
     */
    public ProtocolSettings withPauseThresholdNs(final long thresholdNs)
    {
        return toBuilder().pauseThresholdNs(thresholdNs).build();
    }

    /**
     * @param intervalNs fence interval; {@link Long#MAX_VALUE} never re-sends a fence (only for negative controls).
     * @return a copy with the given fence interval.
     */
    public ProtocolSettings withFenceIntervalNs(final long intervalNs)
    {
        return toBuilder().fenceIntervalNs(intervalNs).build();
    }

    /**
     * @param policy partition policy.
     * @return a copy with the given policy.
     */
    public ProtocolSettings withPartitionPolicy(final PartitionPolicy policy)
    {
        return toBuilder().partitionPolicy(policy).build();
    }

    /**
     * @param timeoutNs probe round timeout; 0 declares suspicions without probing (only for negative controls).
     * @return a copy with the given probe timeout.
     */
    public ProtocolSettings withProbeTimeoutNs(final long timeoutNs)
    {
        return toBuilder().probeTimeoutNs(timeoutNs).build();
    }

    /**
     * @param suspicionTimeoutNs δ.
     * @return the default view digest period, 4δ: a view that missed a broadcast is mended within a few δ, for one
     * small frame per node and neighbour every 4δ (a node beats its observer δ/η times as often).
     */
    public static long defaultViewDigestPeriodNs(final long suspicionTimeoutNs)
    {
        return 4 * suspicionTimeoutNs;
    }

    /**
     * @param periodNs view digest period; 0 turns the view repair off (only for negative controls).
     * @return a copy with the given view digest period.
     */
    public ProtocolSettings withViewDigestPeriodNs(final long periodNs)
    {
        return toBuilder().viewDigestPeriodNs(periodNs).build();
    }

    /**
     * @param rules {@code BREAK_*} bits (only for negative controls).
     * @return a copy with those rules switched off.
     */
    public ProtocolSettings withBrokenRules(final int rules)
    {
        return toBuilder().brokenRules(rules).build();
    }

    /**
     * @param periodNs settle period of the membership a majority is counted of.
     * @return a copy with the given settle period.
     */
    public ProtocolSettings withSettlePeriodNs(final long periodNs)
    {
        return toBuilder().settlePeriodNs(periodNs).build();
    }

    /**
     * @return a builder holding these settings, to change several and validate once, in {@link Builder#build}.
     */
    public Builder toBuilder()
    {
        return new Builder(this);
    }

    /**
     * Changes settings that other defaults do not derive from. N, η, δ and the dedup capacity are fixed: the probe
     * timeout and settle period defaults are computed from them, and would silently go stale if they changed here.
     */
    public static final class Builder
    {
        private final int clusterSize;
        private final long heartbeatPeriodNs;
        private final long suspicionTimeoutNs;
        private final int dedupCapacity;
        private long pauseThresholdNs;
        private long startupGraceNs;
        private long fenceIntervalNs;
        private PartitionPolicy partitionPolicy;
        private long probeTimeoutNs;
        private long settlePeriodNs;
        private long viewDigestPeriodNs;
        private int brokenRules;

        private Builder(final ProtocolSettings settings)
        {
            clusterSize = settings.clusterSize;
            heartbeatPeriodNs = settings.heartbeatPeriodNs;
            suspicionTimeoutNs = settings.suspicionTimeoutNs;
            pauseThresholdNs = settings.pauseThresholdNs;
            startupGraceNs = settings.startupGraceNs;
            dedupCapacity = settings.dedupCapacity;
            fenceIntervalNs = settings.fenceIntervalNs;
            partitionPolicy = settings.partitionPolicy;
            probeTimeoutNs = settings.probeTimeoutNs;
            settlePeriodNs = settings.settlePeriodNs;
            viewDigestPeriodNs = settings.viewDigestPeriodNs;
            brokenRules = settings.brokenRules;
        }

        /**
         * @param pauseThresholdNs see {@link ProtocolSettings#pauseThresholdNs()}.
         * @return this for a fluent API.
         */
        public Builder pauseThresholdNs(final long pauseThresholdNs)
        {
            this.pauseThresholdNs = pauseThresholdNs;
            return this;
        }

        /**
         * @param startupGraceNs see {@link ProtocolSettings#startupGraceNs()}.
         * @return this for a fluent API.
         */
        public Builder startupGraceNs(final long startupGraceNs)
        {
            this.startupGraceNs = startupGraceNs;
            return this;
        }

        /**
         * @param fenceIntervalNs see {@link ProtocolSettings#fenceIntervalNs()}.
         * @return this for a fluent API.
         */
        public Builder fenceIntervalNs(final long fenceIntervalNs)
        {
            this.fenceIntervalNs = fenceIntervalNs;
            return this;
        }

        /**
         * @param partitionPolicy see {@link ProtocolSettings#partitionPolicy()}.
         * @return this for a fluent API.
         */
        public Builder partitionPolicy(final PartitionPolicy partitionPolicy)
        {
            this.partitionPolicy = partitionPolicy;
            return this;
        }

        /**
         * @param probeTimeoutNs see {@link ProtocolSettings#probeTimeoutNs()}.
         * @return this for a fluent API.
         */
        public Builder probeTimeoutNs(final long probeTimeoutNs)
        {
            this.probeTimeoutNs = probeTimeoutNs;
            return this;
        }

        /**
         * @param settlePeriodNs see {@link ProtocolSettings#settlePeriodNs()}.
         * @return this for a fluent API.
         */
        public Builder settlePeriodNs(final long settlePeriodNs)
        {
            this.settlePeriodNs = settlePeriodNs;
            return this;
        }

        /**
         * @param viewDigestPeriodNs see {@link ProtocolSettings#viewDigestPeriodNs()}.
         * @return this for a fluent API.
         */
        public Builder viewDigestPeriodNs(final long viewDigestPeriodNs)
        {
            this.viewDigestPeriodNs = viewDigestPeriodNs;
            return this;
        }

        /**
         * @param brokenRules see {@link ProtocolSettings#brokenRules()}.
         * @return this for a fluent API.
         */
        public Builder brokenRules(final int brokenRules)
        {
            this.brokenRules = brokenRules;
            return this;
        }

        /**
         * @return the settings, validated as by the canonical constructor.
         * @throws IllegalArgumentException naming the first bad value.
         */
        public ProtocolSettings build()
        {
            return new ProtocolSettings(clusterSize, heartbeatPeriodNs, suspicionTimeoutNs, pauseThresholdNs,
                startupGraceNs, dedupCapacity, fenceIntervalNs, partitionPolicy, probeTimeoutNs, settlePeriodNs,
                viewDigestPeriodNs, brokenRules);
        }
    }
}
