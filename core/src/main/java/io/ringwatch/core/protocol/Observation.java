package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.HeartbeatChannel;

/**
 * One node's place in the observation ring, tasks T1–T3 of paper 002: it beats its observer every η at absolute
 * deadlines (T1), watches its emitter's slot for progress (T2) and reports a silence of δ (T3), and it holds who its
 * emitter and observer are. It decides nothing about a silence: {@link #watchEmitter} returns what it saw and the
 * node applies the partition rule.
 * <p>
 * <b>Startup grace and the pause guard</b> (off the paper's map). Nobody is judged before δ after the startup grace
 * ends ({@link #armed}), and a node whose own duty cycle ran late sees its emitter's slot afresh before it may
 * suspect: its stall would otherwise be blamed on the emitter.
 */
final class Observation
{
    /** {@link #watchEmitter}: no emitter (alone, or joining), or nothing new and no deadline passed. */
    static final int QUIET = 0;
    /** {@link #watchEmitter}: the emitter's counter moved; see {@link #beats()}, {@link #silenceNs()}. */
    static final int HEARD = 1;
    /** {@link #watchEmitter}: this node ran late; its suspicion window starts over. */
    static final int LATE = 2;
    /** {@link #watchEmitter}: the suspicion deadline passed (T3). */
    static final int EXPIRED = 3;

    private final int rank;
    private final long heartbeatPeriodNs;
    private final long suspicionTimeoutNs;
    private final long startupGraceNs;
    // δ, or 0 under the old arming rule (BrokenRules.BREAK_GRACE_ARMING, negative controls only)
    private final long armingDelayNs;
    private final boolean requestObserverAgain;
    private final HeartbeatChannel heartbeats;
    private final ControlChannel control;
    private final Membership membership;
    private final ProtocolCounters counters;

    private int emitter;
    private int observer;
    private long heartbeatCounter;
    private long nextHeartbeatNs;
    private long lastEmittedNs;
    private long lastSeenCounter = HeartbeatChannel.NO_HEARTBEAT;
    private long emitterHeardNs;
    // this node's duty cycle ran late since the emitter was last heard: it cannot tell a cut from its own stall
    private boolean stalledSinceHeard;
    private long suspicionDeadlineNs;
    private long armedAtNs;
    private long beats;
    private long silenceNs;
    private boolean stalled;

    Observation(
        final int rank,
        final ProtocolSettings settings,
        final HeartbeatChannel heartbeats,
        final ControlChannel control,
        final Membership membership,
        final ProtocolCounters counters)
    {
        final int clusterSize = settings.clusterSize();
        this.rank = rank;
        this.heartbeatPeriodNs = settings.heartbeatPeriodNs();
        this.suspicionTimeoutNs = settings.suspicionTimeoutNs();
        this.startupGraceNs = settings.startupGraceNs();
        this.armingDelayNs = settings.breaks(BrokenRules.BREAK_GRACE_ARMING) ? 0 : suspicionTimeoutNs;
        this.requestObserverAgain = !settings.breaks(BrokenRules.BREAK_OBSERVER_REQUEST);
        this.heartbeats = heartbeats;
        this.control = control;
        this.membership = membership;
        this.counters = counters;
        emitter = Math.floorMod(rank - 1, clusterSize);
        observer = Math.floorMod(rank + 1, clusterSize);
    }

    int emitter()
    {
        return emitter;
    }

    int observer()
    {
        return observer;
    }

    /**
     * Start the clocks at {@code startNs}: the first beat is due then, and the grace ends {@code startupGrace} later.
     */
    void rebase(final long startNs)
    {
        nextHeartbeatNs = startNs;
        lastEmittedNs = startNs;
        emitterHeardNs = startNs;
        armedAtNs = startNs + startupGraceNs;
        suspicionDeadlineNs = armedAtNs + suspicionTimeoutNs;
    }

    /**
     * @return protocol time at which the startup grace ends and suspicion is armed.
     */
    long armedAtNs()
    {
        return armedAtNs;
    }

    /**
     * A suspicion deadline, but never less than δ after the startup grace ends: while the cluster is still coming up
     * (JVMs starting, compiling, mapping memory on the same cores) stalls are expected and nobody is declared dead, and
     * a silence that began in the grace is not held against anyone when it ends. Every emitter gets a whole δ once
     * judging starts, as one never heard does. Live, 16 node JVMs on two cores were still stalling for 20–80 ms when
     * their graces ended; judged at once, emitters heard 15 ms before the end were declared dead.
     */
    long armed(final long deadlineNs)
    {
        final long earliestNs = armedAtNs + armingDelayNs;
        return deadlineNs - earliestNs < 0 ? earliestNs : deadlineNs;
    }

    /**
     * Nobody to watch or beat: a joiner not yet admitted, or a cluster re-formed around this node alone.
     */
    void alone()
    {
        emitter = rank;
        observer = rank;
    }

    /**
     * @param newEmitter  the nearest live predecessor, at boot.
     * @param newObserver the nearest live successor, at boot.
     */
    void neighbours(final int newEmitter, final int newObserver)
    {
        emitter = newEmitter;
        observer = newObserver;
    }

    /**
     * T1 when due. Absolute deadlines: a late beat never pushes the schedule back, it only skips the beats missed.
     *
     * @return 1 if it beat.
     */
    int beatIfDue(final long nowNs)
    {
        if (nowNs - nextHeartbeatNs < 0 || observer == rank || !membership.mayBeat())
        {
            return 0;
        }
        final long periodsDue = (nowNs - nextHeartbeatNs) / heartbeatPeriodNs;
        // before the first beat the wait is the driver starting its duty cycle, not a late emitter
        counters.add(ProtocolCounter.HEARTBEAT_DEADLINES_MISSED,
            counters.get(ProtocolCounter.HEARTBEATS_SENT) == 0 ? 0 : periodsDue);
        beat(nowNs);
        nextHeartbeatNs += (periodsDue + 1) * heartbeatPeriodNs;
        return 1;
    }

    /**
     * Beat the observer now, off schedule: a new observer's grace is short.
     */
    void beat(final long nowNs)
    {
        final long gapNs = nowNs - lastEmittedNs;
        if (counters.get(ProtocolCounter.HEARTBEATS_SENT) > 0)
        {
            counters.raiseTo(ProtocolCounter.MAX_HEARTBEAT_GAP_NS, gapNs);
        }
        lastEmittedNs = nowNs;
        counters.increment(ProtocolCounter.HEARTBEATS_SENT);
        heartbeats.writeHeartbeat(observer, ++heartbeatCounter);
    }

    /**
     * A joiner's first observer: beats are due one period after now.
     */
    void beatsDueFrom(final long nowNs)
    {
        nextHeartbeatNs = nowNs + heartbeatPeriodNs;
    }

    /**
     * T4's effect here: {@code newObserver} watches this node now; it is beaten at once.
     */
    void observedBy(final int newObserver, final long nowNs)
    {
        observer = newObserver;
        membership.observerConfirmed();
        beat(nowNs);
    }

    /**
     * The observer is gone: the next live successor will adopt this node; beat it now so its grace is short.
     */
    void observerLost(final int nextObserver, final long nowNs)
    {
        observer = nextObserver;
        if (observer != rank)
        {
            beat(nowNs);
        }
    }

    /**
     * A new emitter (a mended ring, a joiner before this node, a view that placed this node): nothing seen from it
     * yet, and 2δ before it may be suspected, as the paper allows a new emitter.
     */
    void newEmitter(final int newEmitter, final long nowNs)
    {
        emitter = newEmitter;
        lastSeenCounter = HeartbeatChannel.NO_HEARTBEAT;
        emitterHeardNs = nowNs;
        stalledSinceHeard = false;
        suspicionDeadlineNs = armed(nowNs + 2 * suspicionTimeoutNs);
    }

    /**
     * T2 and T3: look at the emitter's slot.
     *
     * @param late this duty cycle ran late (the pause guard).
     * @return {@link #QUIET}, {@link #HEARD}, {@link #LATE} or {@link #EXPIRED}.
     */
    int watchEmitter(final long nowNs, final boolean late)
    {
        if (emitter == rank)
        {
            return QUIET;
        }
        final long counter = heartbeats.readHeartbeat(emitter);
        if (counter != HeartbeatChannel.NO_HEARTBEAT && counter != lastSeenCounter)
        {
            beats = lastSeenCounter == HeartbeatChannel.NO_HEARTBEAT ? 0 : counter - lastSeenCounter;
            lastSeenCounter = counter;
            counters.increment(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN);
            silenceNs = nowNs - emitterHeardNs;
            emitterHeardNs = nowNs;
            stalled = late || stalledSinceHeard;
            stalledSinceHeard = false;
            suspicionDeadlineNs = armed(nowNs + suspicionTimeoutNs);
            return HEARD;
        }
        if (late)
        {
            stalledSinceHeard = true;
            counters.increment(ProtocolCounter.PAUSES_DETECTED);
            if (suspicionDeadlineNs - (nowNs + suspicionTimeoutNs) < 0)
            {
                suspicionDeadlineNs = nowNs + suspicionTimeoutNs;
            }
            return LATE;
        }
        return nowNs - suspicionDeadlineNs >= 0 ? EXPIRED : QUIET;
    }

    /**
     * @return after {@link #HEARD}: how far the emitter's counter moved, 0 for a new emitter's first beat.
     */
    long beats()
    {
        return beats;
    }

    /**
     * @return after {@link #HEARD}: how long the emitter had been silent.
     */
    long silenceNs()
    {
        return silenceNs;
    }

    /**
     * @return after {@link #HEARD}: this node ran late since it last heard the emitter, so it cannot tell a cut from
     * its own stall.
     */
    boolean stalled()
    {
        return stalled;
    }

    /**
     * Set when {@link #watchEmitter} next reports the emitter expired (the probe session's next step while it runs).
     */
    void suspicionDeadline(final long deadlineNs)
    {
        suspicionDeadlineNs = deadlineNs;
    }

    /**
     * The emitter answered a probe after a silence of δ: it lives and reaches this node, yet sent no beat here. The
     * likeliest reason is that it never took this node as its observer (the NEW_OBSERVER of a ring mend lost in a
     * cut), and nothing else would ever tell it: it would answer every probe and never beat, and it would keep
     * sending its view digests to an observer it still holds alive. So ask again; a NEW_OBSERVER it had taken already
     * only makes it beat at once.
     */
    void emitterAnswered(final long nowNs)
    {
        suspicionDeadlineNs = armed(nowNs + suspicionTimeoutNs);
        if (emitter != rank && requestObserverAgain)
        {
            counters.increment(ProtocolCounter.NEW_OBSERVER_RESENT);
            control.sendNewObserver(emitter);
        }
    }

    /**
     * @return the next heartbeat deadline, {@link Long#MAX_VALUE} with nobody to beat.
     */
    long nextHeartbeatNs()
    {
        return observer == rank || !membership.mayBeat() ? Long.MAX_VALUE : nextHeartbeatNs;
    }

    /**
     * @return the suspicion deadline, {@link Long#MAX_VALUE} with nobody to watch.
     */
    long suspicionDeadlineNs()
    {
        return emitter == rank ? Long.MAX_VALUE : suspicionDeadlineNs;
    }
}
