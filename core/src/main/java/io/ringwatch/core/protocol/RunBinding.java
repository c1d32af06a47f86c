package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.FrameType;

/**
 * Which run of the cluster this node belongs to (see {@code docs/security.md}, <i>Frames are bound to a run</i>).
 * Every frame carries its sender's run and a node takes frames of its own run only, so frames recorded in an earlier
 * run of the cluster, under the same key, are refused however new their incarnations and sequences look. The rule is
 * here; the runtime only stamps and checks what {@link io.ringwatch.core.spi.ControlChannel#bindRun} tells it.
 * <ul>
 * <li><b>Boot.</b> A boot member or seed is bound to its own candidate, which the driver draws (time-ordered: the
 * milliseconds since the epoch shifted left 16 bits, 16 random bits below; core reads no clock and draws nothing),
 * and during its startup grace adopts any higher run it hears; it tells its ring neighbours each run it takes then,
 * so the highest candidate among the members that hear one another wins before anyone is judged, whether or not
 * heartbeats travel as frames (a wave around the ring: as many hops as members in the worst case, each a network
 * delay, and a node may be told several runs, each higher).</li>
 * <li><b>Join.</b> A joiner knows no run: it learns its contact's from the challenge that returns its own nonce
 * ({@link JoinChallenge#returnsOwn}), never from a frame that merely names one.</li>
 * <li><b>Re-form.</b> The leader starts a new run under its own candidate, drawn when its process started, after the
 * run that ended.</li>
 * </ul>
 * A driver that gives no candidate binds no runs: the node stays unbound (run 0) and behaves as before run binding.
 * Part of one {@link DetectorNode}, driven by its thread alone; allocation free.
 */
final class RunBinding
{
    /** The run of a node bound to none. */
    static final long UNBOUND = 0;

    private final Shared shared;
    private final ViewRepair viewRepair;
    private final long minWindowNs;
    private long candidate = UNBOUND;
    private long run = UNBOUND;
    private long adoptUntilNs;
    private boolean adopting;
    private boolean untold;

    /**
     * @param suspicionTimeoutNs δ: higher runs are adopted for at least 2δ after the start, whatever the grace.
     */
    RunBinding(final Shared shared, final ViewRepair viewRepair, final long suspicionTimeoutNs)
    {
        this.shared = shared;
        this.viewRepair = viewRepair;
        this.minWindowNs = 2 * suspicionTimeoutNs;
    }

    /**
     * @param candidate this process's candidate run, drawn by its driver; 0 binds no runs.
     */
    void candidate(final long candidate)
    {
        this.candidate = candidate;
    }

    /**
     * The node starts (as a boot member, a seed or a joiner): higher runs are adopted until the grace ends at
     * {@code armedAtNs}, and for 2δ at least: with no grace the members still agree (a wave of digests around the
     * ring, a network delay a hop) before an observer that refuses its emitter's beats for their run would suspect
     * it, δ after the grace.
     *
     * @param bootMember true for a boot member or seed, bound to its candidate at once; a joiner learns its run.
     */
    void started(final boolean bootMember, final long armedAtNs, final long nowNs)
    {
        adoptUntilNs = Math.max(armedAtNs, nowNs + minWindowNs);
        if (bootMember && candidate != UNBOUND)
        {
            bind(candidate, true);
        }
    }

    /**
     * A frame accepted under {@code frameRun}: during the grace a higher run than this node's is adopted and told to
     * both ring neighbours at once, so the highest run travels the ring a network delay a hop, not a duty cycle. The
     * unbound types name whatever run their sender holds and never teach one.
     */
    void onFrame(final int type, final long frameRun, final long nowNs)
    {
        if (adopting && frameRun > run && !unbound(type) && nowNs - adoptUntilNs < 0)
        {
            bind(frameRun, true);
            shared.counters.increment(ProtocolCounter.RUNS_ADOPTED);
            tellIfUntold();
        }
    }

    /**
     * During the grace, tell both ring neighbours the run this node took at its start or from its contact (once it
     * is a member), so the highest spreads whether or not heartbeats travel as frames; once the grace is over, fix
     * the run.
     */
    void doWork(final long nowNs)
    {
        if (!adopting)
        {
            return;
        }
        if (nowNs - adoptUntilNs >= 0)
        {
            bind(run, false);
            return;
        }
        tellIfUntold();
    }

    private void tellIfUntold()
    {
        final int emitter = shared.observation.emitter();
        if (untold && shared.view.active() && emitter != shared.rank)
        {
            // a digest is harmless to its receiver, and stamped with this run, which it adopts if its own is lower
            untold = false;
            viewRepair.askForView(emitter, shared.dead, shared.membership.incarnations(), shared.control);
            final int observer = shared.observation.observer();
            if (observer != emitter)
            {
                viewRepair.askForView(observer, shared.dead, shared.membership.incarnations(), shared.control);
            }
        }
    }

    /**
     * A contact's challenge returned this joiner's nonce: take its run.
     */
    void learn(final long contactRun, final long nowNs)
    {
        if (contactRun == UNBOUND || contactRun == run)
        {
            return;
        }
        bind(contactRun, nowNs - adoptUntilNs < 0);
        shared.counters.increment(ProtocolCounter.RUNS_LEARNED);
    }

    /**
     * This node re-formed the cluster: the run that ended is over, a new one starts under this process's candidate.
     */
    void reformed()
    {
        if (candidate != UNBOUND)
        {
            bind(candidate, false);
        }
    }

    /**
     * @return true if a request under {@code frameRun} comes from a node bound to this node's run.
     */
    boolean isOwn(final long frameRun)
    {
        return frameRun == run;
    }

    /**
     * @return the run this node is bound to, {@link #UNBOUND} if none.
     */
    long run()
    {
        return run;
    }

    private void bind(final long newRun, final boolean adoptHigher)
    {
        untold = adoptHigher && newRun != run;
        run = newRun;
        adopting = adoptHigher;
        shared.control.bindRun(newRun, adoptHigher);
    }

    private static boolean unbound(final int type)
    {
        return type == FrameType.JOIN_REQUEST || type == FrameType.JOIN_CHALLENGE || type == FrameType.REFORM_POLL ||
            type == FrameType.REFORM_ACK;
    }
}
