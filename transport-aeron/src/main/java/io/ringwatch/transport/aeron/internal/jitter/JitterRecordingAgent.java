package io.ringwatch.transport.aeron.internal.jitter;

import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.transport.aeron.internal.RingwatchAgent;
import io.ringwatch.transport.aeron.jitter.JitterLayout;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

/**
 * Runs a {@link RingwatchAgent} and records, into its {@link JitterFile}, how long each duty cycle took and how late
 * each scheduled heartbeat went out: the emitter's own jitter, which is what the application around it feels and
 * what eats into δ. Outside the agent and the protocol on purpose: neither changes, and a node without a jitter
 * file runs the bare agent.
 * <p>
 * The schedule is the protocol's: beats are due at {@code start + k·η}; a late beat is due at the deadline it
 * missed, and the next is the first schedule point after it (DetectorNode skips, it never shifts). Right after
 * {@link DetectorNode#start(long)} the node's earliest deadline is its first beat, due at once. The error of a beat
 * is measured from the start of the duty cycle that sent it (the clock read just before the agent's own), so it
 * leaves out the few polls that precede the write in that cycle; the duty-cycle histogram beside it bounds them.
 * Heartbeats sent out of schedule (to a new observer) are not counted.
 * <p>
 * After a duty cycle that found no work, the gap to the next cycle (the idle strategy's sleep) is recorded too: its
 * count above {@link JitterLayout#WAKE_UP_MIN_NS} per second is how often the agent wakes the core it shares.
 * <p>
 * Costs two clock reads per duty cycle. No allocation.
 */
public final class JitterRecordingAgent implements Agent
{
    private final RingwatchAgent agent;
    private final JitterFile file;
    private final NanoClock clock;
    private final long periodNs;
    private DetectorNode node;
    private long dueNs;
    private long idleSinceNs;
    private boolean idle;

    /**
     * @param agent    the node's agent.
     * @param file     where to record.
     * @param clock    the agent's clock.
     * @param periodNs η.
     */
    public JitterRecordingAgent(
        final RingwatchAgent agent, final JitterFile file, final NanoClock clock, final long periodNs)
    {
        this.agent = agent;
        this.file = file;
        this.clock = clock;
        this.periodNs = periodNs;
    }

    /**
     * {@inheritDoc}
     */
    public void onStart()
    {
        agent.onStart();
        node = agent.node();
        dueNs = node.nextDeadlineNs();
    }

    /**
     * {@inheritDoc}
     */
    public int doWork() throws Exception
    {
        final long sentBefore = node.counter(ProtocolCounter.HEARTBEATS_SENT);
        final long startNs = clock.nanoTime();
        final int work = agent.doWork();
        final long endNs = clock.nanoTime();
        file.record(JitterLayout.DUTY_CYCLE, endNs - startNs);
        if (idle)
        {
            file.record(JitterLayout.IDLE_GAP, startNs - idleSinceNs);
        }
        idle = work <= 0;
        idleSinceNs = endNs;
        // a scheduled beat can only have gone out if its deadline had come by the end of the cycle
        if (node.counter(ProtocolCounter.HEARTBEATS_SENT) != sentBefore && endNs - dueNs >= 0)
        {
            final long lateNs = Math.max(0, startNs - dueNs);
            file.record(JitterLayout.EMISSION_ERROR, lateNs);
            dueNs += (lateNs / periodNs + 1) * periodNs;
        }
        return work;
    }

    /**
     * {@inheritDoc}
     */
    public void onClose()
    {
        agent.onClose();
    }

    /**
     * {@inheritDoc}
     */
    public String roleName()
    {
        return agent.roleName();
    }

    /**
     * @return the agent it runs.
     */
    public RingwatchAgent agent()
    {
        return agent;
    }
}
