package io.ringwatch.core.protocol;

import io.ringwatch.core.sim.SimFrame;
import io.ringwatch.core.spi.FrameType;
import org.junit.jupiter.api.Test;

import static io.ringwatch.core.protocol.SixteenNodes.DELTA;
import static io.ringwatch.core.protocol.SixteenNodes.ETA;
import static io.ringwatch.core.protocol.SixteenNodes.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Run binding's rule in the protocol (issue 28, finding 3): which run a node binds its transport to, and when. The
 * transport's side (stamping, refusing other runs as WRONG_RUN) is {@code RunBindingFramesTest}'s.
 */
class RunBindingTest
{
    private static final long CANDIDATE = RunIds.candidate(1_795_000_000_000L, 0x1234);
    private static final long HIGHER = RunIds.candidate(1_795_000_000_001L, 0x0001);
    private static final long CONTACT_RUN = RunIds.candidate(1_795_000_000_500L, 0x7777);

    private final RecordingChannels io = new RecordingChannels();
    private final SimFrame frame = new SimFrame();

    @Test
    void shouldBindNothingWithoutACandidate()
    {
        final DetectorNode node = SixteenNodes.node(5, 0, io);
        node.start(START);
        node.onFrame(frame.run(HIGHER, 0).token(FrameType.VIEW_DIGEST, 4, 0, 1), START + 1);
        runCycles(node, START, START + 4 * DELTA);
        assertEquals(0, io.runBinds, "a driver that gives no candidate binds no runs: the node behaves as before");
        assertEquals(0, node.counter(ProtocolCounter.RUNS_ADOPTED));
    }

    @Test
    void shouldBootUnderItsCandidateAdoptAHigherRunDuringTheGraceOnlyAndTellItsNeighbours()
    {
        final DetectorNode node = SixteenNodes.node(5, 0, io);
        node.runCandidate(CANDIDATE);
        node.start(START);
        assertEquals(CANDIDATE, io.boundRun);
        assertTrue(io.adoptsHigherRuns);

        node.doWork(START);
        assertEquals(2, io.viewDigests.size(), "its run told to both ring neighbours: " + io.viewDigests);
        assertEquals(Set2.of(4, 6), Set2.of(io.viewDigests.get(0).to(), io.viewDigests.get(1).to()));

        node.onFrame(frame.run(CANDIDATE - 1, 0).token(FrameType.VIEW_DIGEST, 4, 0, 1), START + 1);
        assertEquals(CANDIDATE, io.boundRun, "never a lower run");
        node.onFrame(frame.run(HIGHER, 0).token(FrameType.JOIN_REQUEST, 9, 7, 1), START + 2);
        assertEquals(CANDIDATE, io.boundRun, "an unbound frame names whatever run its sender holds: it teaches none");

        node.onFrame(frame.run(HIGHER, 0).token(FrameType.VIEW_DIGEST, 4, 0, 1), START + 3);
        assertEquals(HIGHER, io.boundRun);
        assertTrue(io.adoptsHigherRuns);
        assertEquals(1, node.counter(ProtocolCounter.RUNS_ADOPTED));
        assertEquals(4, io.viewDigests.size(), "the adopted run told on to both neighbours at once");
        node.doWork(START + ETA);
        assertEquals(4, io.viewDigests.size(), "and only once");

        // the grace is 0 here: higher runs are adopted for 2δ after the start
        runCycles(node, START + 2 * ETA, START + 2 * DELTA + 1);
        assertEquals(HIGHER, io.boundRun);
        assertFalse(io.adoptsHigherRuns, "the grace is over: the run is fixed");
        final long fixed = HIGHER + 1;
        node.onFrame(frame.run(fixed, 0).token(FrameType.VIEW_DIGEST, 4, 0, 1), START + 2 * DELTA + 1);
        assertEquals(HIGHER, io.boundRun);
        assertEquals(1, node.counter(ProtocolCounter.RUNS_ADOPTED));
    }

    @Test
    void shouldLearnTheContactsRunOnlyFromAChallengeThatReturnsItsOwnNonce()
    {
        final DetectorNode joiner = SixteenNodes.node(6, 40, io);
        joiner.runCandidate(CANDIDATE);
        joiner.join(START);
        assertEquals(0, io.runBinds, "a joiner knows no run: it asks unbound");
        final long t = askOnce(joiner);
        final long nonce = io.lastJoinerNonce;
        assertNotEquals(0, nonce);

        // a challenge replayed from another run returns another nonce: answered as before, but it teaches nothing
        joiner.onFrame(frame.run(CONTACT_RUN - 5, nonce + 2).token(FrameType.JOIN_CHALLENGE, 5, 0, 111), t + 1);
        assertEquals(0, io.runBinds);
        assertEquals(0, joiner.counter(ProtocolCounter.RUNS_LEARNED));

        joiner.onFrame(frame.run(CONTACT_RUN, nonce).token(FrameType.JOIN_CHALLENGE, 5, 0, 222), t + 2);
        assertEquals(CONTACT_RUN, io.boundRun, "learned before the proof goes out, so the proof is stamped with it");
        assertEquals(t + 2 - START < 2 * DELTA, io.adoptsHigherRuns, "adopting only within 2δ of its start");
        assertEquals(1, joiner.counter(ProtocolCounter.RUNS_LEARNED));
        assertEquals(222, io.sentOfType("joinProof").get(io.sentOfType("joinProof").size() - 1).value());
    }

    @Test
    void shouldChallengeAnUnboundRequestEvenFromALifeItHoldsAndReturnTheJoinersNonce()
    {
        final DetectorNode contact = SixteenNodes.node(5, 0, io);
        contact.runCandidate(CANDIDATE);
        contact.start(START);
        final long t = START + 10;

        // a proven join of 6@40, the joiner bound to the contact's run
        contact.onFrame(frame.run(0, 4242).token(FrameType.JOIN_REQUEST, 6, 40, 4242), t);
        assertEquals(1, io.joinChallenges.size());
        assertEquals(4242, io.lastChallengedJoinerNonce, "the joiner's nonce returned");
        contact.onFrame(frame.run(CANDIDATE, 0).token(FrameType.JOIN_PROOF, 6, 40,
            io.joinChallenges.get(0).value()), t + 1);
        assertEquals(40, contact.incarnationOf(6));
        final int views = io.sentOfType("view").size();

        // a repeat from the bound joiner: the view again, no challenge
        contact.onFrame(frame.run(CANDIDATE, 0).token(FrameType.JOIN_REQUEST, 6, 40, 1), t + 2);
        assertEquals(1, io.joinChallenges.size());
        assertEquals(views + 1, io.sentOfType("view").size());

        // the same life asking unbound (it knows no run): its view would be refused, so it is challenged first
        contact.onFrame(frame.run(0, 99).token(FrameType.JOIN_REQUEST, 6, 40, 99), t + 3);
        assertEquals(2, io.joinChallenges.size());
        assertEquals(99, io.lastChallengedJoinerNonce);
        assertEquals(views + 1, io.sentOfType("view").size());
    }

    @Test
    void shouldStartANewRunUnderItsCandidateWhenItReforms()
    {
        final DetectorNode leader = SixteenNodes.node(0, 40, io);
        leader.runCandidate(CANDIDATE);
        leader.join(START);
        // a run learned from a contact of the run that has since ended
        final long t = askOnce(leader);
        leader.onFrame(frame.run(CONTACT_RUN, io.lastJoinerNonce).token(FrameType.JOIN_CHALLENGE, 5, 0, 1), t + 1);
        assertEquals(CONTACT_RUN, io.boundRun);

        // every other rank answers both polls (the binding one goes out as the last answer to the first comes in)
        int answered = 0;
        for (long now = t + 2; leader.state() == NodeState.JOINING && now < t + 100 * DELTA; now += ETA)
        {
            leader.doWork(now);
            while (io.sentOfType("reformPoll").size() > answered)
            {
                answered = io.sentOfType("reformPoll").size();
                final long token = io.sentOfType("reformPoll").get(answered - 1).value();
                for (int r = 1; r < SixteenNodes.N; r++)
                {
                    leader.onFrame(frame.run(0, 0).token(FrameType.REFORM_ACK, r, 7, token), now);
                }
            }
        }
        assertEquals(NodeState.ACTIVE, leader.state(), "re-formed");
        assertEquals(1, leader.counter(ProtocolCounter.REFORMS));
        assertEquals(CANDIDATE, io.boundRun, "a re-form starts a new run, under this process's candidate");
    }

    private static void runCycles(final DetectorNode node, final long fromNs, final long untilNs)
    {
        for (long t = fromNs; t < untilNs; t += ETA)
        {
            node.doWork(t);
        }
    }

    private long askOnce(final DetectorNode joiner)
    {
        for (long t = START; t < START + 1_000 * DELTA; t += ETA)
        {
            joiner.doWork(t);
            if (!io.sentOfType("joinRequest").isEmpty())
            {
                return t;
            }
        }
        throw new AssertionError("the joiner never asked");
    }

    private record Set2(int a, int b)
    {
        static Set2 of(final int x, final int y)
        {
            return new Set2(Math.min(x, y), Math.max(x, y));
        }
    }
}
