package io.ringwatch.core.protocol;

import io.ringwatch.core.ThreadAllocation;
import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.Notice;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The duty cycle of a node in steady state (heartbeat when due, read the slot, see progress) must not allocate:
 * measured with the JVM's per-thread allocation counter over a million cycles after warm-up.
 */
class DetectorNodeAllocationTest
{
    private static final long ETA_NS = 1_000;
    private static final long DELTA_NS = 10_000;
    private static final int WARMUP_CYCLES = 300_000;
    private static final int MEASURED_CYCLES = 1_000_000;
    private static final int MAX_ROUNDS = 5;

    /** The observer's slot, written by a fake emitter that beats every other cycle. */
    private static final class Slot implements HeartbeatChannel
    {
        long emitterCounter;
        // beats the emitter sent, delivered or not
        long emitterBeats;
        long written;

        public void writeHeartbeat(final int observerRank, final long counter)
        {
            written = counter;
        }

        public long readHeartbeat(final int emitterRank)
        {
            return emitterCounter;
        }

        public int lastWriter()
        {
            return NO_WRITER;
        }
    }

    private static final class NoControl implements ControlChannel
    {
        int sent;
        int digestsSent;
        int probedEmitter = -1;
        long probeToken;

        public void sendNewObserver(final int emitterRank)
        {
            sent++;
        }

        public void sendLeave(final int observerRank)
        {
            sent++;
        }

        public void sendNotice(final int toRank, final Notice notice)
        {
            sent++;
        }

        public void sendProbe(final int toRank, final long token)
        {
            sent++;
            if (toRank == 0)
            {
                probedEmitter = toRank;
                probeToken = token;
            }
        }

        public void sendProbeAck(final int toRank, final long token)
        {
            sent++;
        }

        public void sendViewDigest(final int toRank, final long digest)
        {
            digestsSent++;
        }

        // a token is the leader's nonce: any 64 bits
        long pollToken;
        boolean polled;
        int polls;

        public void sendJoinRequest(final int contactRank, final long joinerNonce)
        {
            sent++;
        }

        int challenges;

        public void sendJoinChallenge(final int joinerRank, final long nonce, final long joinerNonce)
        {
            challenges++;
        }

        public void sendReformPoll(final int toRank, final long token)
        {
            polls++;
            pollToken = token;
            polled = true;
        }
    }

    @Test
    void shouldNotAllocateInSteadyStateDutyCycle()
    {
        final ThreadAllocation allocation = ThreadAllocation.counter();
        final Slot slot = new Slot();
        final NoControl control = new NoControl();
        final DetectorNode node = observer(slot, control);

        final long[] nowNs = {0};
        runCycles(node, slot, nowNs, WARMUP_CYCLES);
        final long heartbeatsBefore = node.counter(ProtocolCounter.HEARTBEATS_SENT);
        final long progressBefore = node.counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN);
        final int digestsBefore = control.digestsSent;

        final int rounds = measureUntilARoundAllocatesNothing(
            allocation, () -> runCycles(node, slot, nowNs, MEASURED_CYCLES), "duty cycles");
        final long expectedBeats = rounds * (long)MEASURED_CYCLES / 2;
        assertEquals(expectedBeats, node.counter(ProtocolCounter.HEARTBEATS_SENT) - heartbeatsBefore, "heartbeats sent");
        assertEquals(expectedBeats, node.counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN) - progressBefore, "progress seen");
        assertEquals(0, control.sent, "no suspicion, no control traffic but view digests");
        assertTrue(control.digestsSent > digestsBefore, "view digests went out in the measured cycles too");
        assertEquals(0, node.deadSet().size());
    }

    /**
     * The majority rule's probes and heals allocate nothing either: the emitter's beats are lost for longer than δ again
     * and again (it goes on beating), the node probes it and its predecessor, the emitter answers, its beats come
     * through again and the node announces the heal.
     */
    @Test
    void shouldNotAllocateWhileProbingASilentEmitterThatAnswers()
    {
        final ThreadAllocation allocation = ThreadAllocation.counter();
        final Slot slot = new Slot();
        final NoControl control = new NoControl();
        final DetectorNode node = observer(slot, control);
        assertEquals(PartitionPolicy.MAJORITY, node.partitionPolicy());

        final long[] nowNs = {0};
        runProbingCycles(node, slot, control, nowNs, WARMUP_CYCLES);
        final long probesBefore = node.counter(ProtocolCounter.PROBES_SENT);

        final int rounds = measureUntilARoundAllocatesNothing(
            allocation, () -> runProbingCycles(node, slot, control, nowNs, MEASURED_CYCLES), "probing duty cycles");
        assertTrue(node.counter(ProtocolCounter.PROBES_SENT) - probesBefore > rounds * (long)MEASURED_CYCLES / 100, "it kept probing");
        assertEquals(0, node.counter(ProtocolCounter.SUSPICIONS), "an answering emitter is never declared");
        assertTrue(node.counter(ProtocolCounter.HEALS_ANNOUNCED) > 0, "each return of the emitter after δ of silence announces a heal");
        assertEquals(0, node.deadSet().size());
    }

    /**
     * Rank 0 of 3 joining where nobody admits it polls every 4δ: both others answer the asking poll, nobody the
     * binding one, so it never re-forms and keeps polling. Its answer bits are made at the first poll, nothing after.
     */
    @Test
    void shouldNotAllocateWhilePollingToReform()
    {
        final ThreadAllocation allocation = ThreadAllocation.counter();
        final Slot slot = new Slot();
        final NoControl control = new NoControl();
        final DetectorNode leader = new DetectorNode(
            0, 5, ProtocolSettings.of(3, ETA_NS, DELTA_NS), new DoubleHypercubeSchedule(),
            slot, control, MembershipListener.NO_OP, 0);
        leader.join(0);

        final long[] nowNs = {0};
        runPollingCycles(leader, control, nowNs, WARMUP_CYCLES);
        final int pollsBefore = control.polls;

        final int rounds = measureUntilARoundAllocatesNothing(
            allocation, () -> runPollingCycles(leader, control, nowNs, MEASURED_CYCLES), "polling duty cycles");
        // every 4δ (80 cycles of η/2) the asking poll and the binding one, 2 frames each
        assertEquals(rounds * (double)MEASURED_CYCLES / 80 * 4, control.polls - pollsBefore, 8,
            "it kept polling, both rounds");
        assertEquals(NodeState.JOINING, leader.state());
        assertEquals(0, leader.counter(ProtocolCounter.REFORMS));
    }

    private static void runPollingCycles(
        final DetectorNode leader, final NoControl control, final long[] nowNs, final int cycles)
    {
        long now = nowNs[0];
        for (int i = 0; i < cycles; i++)
        {
            now += ETA_NS / 2;
            leader.doWork(now);
            if (control.polled)
            {
                // both answer the asking poll, which sends the binding one; nobody answers that
                final long token = control.pollToken;
                control.polled = false;
                Deliver.reformAck(leader, 1, 3, token, now);
                Deliver.reformAck(leader, 2, 3, token, now);
                control.polled = false;
            }
        }
        nowNs[0] = now;
    }

    /** Rank 1 of 3, observing rank 0 through {@code slot}. */
    /**
     * A flood of replayed join requests and proofs: each is challenged (no table to fill) and nothing allocates.
     */
    @Test
    void shouldNotAllocateWhileChallengingReplayedJoins()
    {
        final ThreadAllocation allocation = ThreadAllocation.counter();
        final NoControl control = new NoControl();
        final DetectorNode contact = observer(new Slot(), control);
        final long[] nowNs = {0};
        final Runnable replays = () ->
        {
            for (int i = 0; i < MEASURED_CYCLES / 2; i++)
            {
                nowNs[0] += ETA_NS;
                Deliver.joinRequest(contact, 2, 100 + (i & 7), nowNs[0]);
                Deliver.joinProof(contact, 2, 100 + (i & 7), i | 1, nowNs[0]);
            }
        };
        replays.run();

        final int rounds = measureUntilARoundAllocatesNothing(allocation, replays, "challenged joins");
        assertEquals((rounds + 1) * (long)MEASURED_CYCLES, control.challenges);
        assertEquals(0, contact.counter(ProtocolCounter.JOINS_ADMITTED));
        assertEquals(0, contact.incarnationOf(2));
    }

    private static DetectorNode observer(final Slot slot, final NoControl control)
    {
        return new DetectorNode(
            1, 0, ProtocolSettings.of(3, ETA_NS, DELTA_NS), new DoubleHypercubeSchedule(),
            slot, control, MembershipListener.NO_OP, 0);
    }

    /**
     * Run rounds of {@link #MEASURED_CYCLES} until one allocates nothing, at most {@link #MAX_ROUNDS}, and assert one
     * did. A per-cycle allocation shows up in every round as megabytes; a few hundred bytes once are the JIT still
     * settling on a busy machine, so steady state means: some round of a million cycles allocates nothing.
     *
     * @return how many rounds ran.
     */
    private static int measureUntilARoundAllocatesNothing(
        final ThreadAllocation allocation, final Runnable round, final String what)
    {
        final long[] roundBytes = allocation.rounds(MAX_ROUNDS, 0, round);
        assertEquals(0, ThreadAllocation.fewest(roundBytes), "bytes allocated per round of " + MEASURED_CYCLES + " " +
            what + ": " + Arrays.toString(roundBytes));
        return roundBytes.length;
    }

    private static void runProbingCycles(
        final DetectorNode node, final Slot slot, final NoControl control, final long[] nowNs, final int cycles)
    {
        long now = nowNs[0];
        int beats = 0;
        for (int i = 0; i < cycles; i++)
        {
            now += ETA_NS / 2;
            if ((i & 1) == 0)
            {
                slot.emitterBeats++;
                if (beats < 8)
                {
                    slot.emitterCounter = slot.emitterBeats;
                    beats++;
                }
            }
            node.doWork(now);
            if (control.probedEmitter == 0)
            {
                control.probedEmitter = -1;
                Deliver.probeAck(node, 0, InboundFrame.UNKNOWN_INCARNATION, control.probeToken, now);
                beats = 0;
            }
        }
        nowNs[0] = now;
    }

    private static void runCycles(final DetectorNode node, final Slot slot, final long[] nowNs, final int cycles)
    {
        long now = nowNs[0];
        for (int i = 0; i < cycles; i++)
        {
            now += ETA_NS / 2;
            if ((i & 1) == 0)
            {
                slot.emitterCounter++;
            }
            node.doWork(now);
        }
        nowNs[0] = now;
    }
}
