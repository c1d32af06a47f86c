package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static io.ringwatch.core.protocol.SixteenNodes.DELTA;
import static io.ringwatch.core.protocol.SixteenNodes.ETA;
import static io.ringwatch.core.protocol.SixteenNodes.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The challenge–response join (issue 28, finding 2): a contact acts on a JOIN_REQUEST under a newer incarnation than
 * it holds only once the joiner has returned a nonce drawn for it in the last δ to 2δ. A recorded request, replayed,
 * draws a challenge nobody answers; a recorded proof carries a nonce drawn for another time or by another life.
 */
class JoinChallengeTest
{
    private final RecordingChannels io = new RecordingChannels();
    private final DetectorNode contact = SixteenNodes.node(5, 0, io);

    @Test
    void shouldChallengeARequestUnderANewerIncarnationAndChangeNothingUntilItIsProven()
    {
        final long epoch = contact.viewEpoch();
        Deliver.joinRequest(contact, 6, 40, START + 10);

        assertTrue(contact.isAlive(6));
        assertEquals(0, contact.incarnationOf(6), "the life held alive is not declared dead on a request alone");
        assertEquals(epoch, contact.viewEpoch());
        assertTrue(io.notices.isEmpty());
        assertTrue(io.sentOfType("view").isEmpty());
        assertEquals(1, io.joinChallenges.size());
        assertEquals(6, io.joinChallenges.get(0).to());
        assertNotEquals(0, io.joinChallenges.get(0).value());
        assertEquals(1, contact.counter(ProtocolCounter.JOIN_CHALLENGES_SENT));

        Deliver.joinProof(contact, 6, 40, io.joinChallenges.get(0).value(), START + 11);

        assertEquals(40, contact.incarnationOf(6));
        assertEquals(1, contact.counter(ProtocolCounter.JOINS_ADMITTED));
        assertTrue(io.events.contains("failure 6 DETECTED by 5 at " + (START + 11)), io.events.toString());
        assertTrue(io.notices.stream().anyMatch((n) -> n.join() && n.deadRank() == 6 && n.subjectIncarnation() == 40));
        assertEquals(1, io.sentOfType("view").size());
    }

    @Test
    void shouldNotActOnARecordedRequestWhoseChallengeNobodyAnswers()
    {
        final long epoch = contact.viewEpoch();
        // the recording replayed every δ/2 for 4δ, as a joiner would ask
        for (long t = START; t < START + 4 * DELTA; t += DELTA / 2)
        {
            Deliver.joinRequest(contact, 6, 40, t);
        }
        assertEquals(epoch, contact.viewEpoch());
        assertEquals(0, contact.incarnationOf(6));
        assertTrue(contact.isAlive(6));
        assertEquals(0, contact.counter(ProtocolCounter.JOINS_ADMITTED));
        assertEquals(io.joinChallenges.size(), contact.counter(ProtocolCounter.JOIN_CHALLENGES_SENT));
        assertEquals(8, io.joinChallenges.size(), "each replay drew a challenge");
    }

    @Test
    void shouldRefuseAProofOfAnotherTimeAnotherLifeOrAnotherContact()
    {
        Deliver.joinRequest(contact, 6, 40, START);
        final long nonce = io.joinChallenges.get(0).value();

        Deliver.joinProof(contact, 6, 41, nonce, START + 1);
        Deliver.joinProof(contact, 7, 40, nonce, START + 1);
        Deliver.joinProof(contact, 6, 40, nonce + 1, START + 1);
        Deliver.joinProof(contact, 6, 40, nonce, START + 2 * DELTA + 1);

        final DetectorNode otherLife = SixteenNodes.node(5, 9, new RecordingChannels());
        Deliver.joinProof(otherLife, 6, 40, nonce, START + 1);
        final DetectorNode otherSecret = SixteenNodes.node(5, 0, new RecordingChannels());
        otherSecret.joinNonceSecret(new SplittableRandom(42).nextLong());
        Deliver.joinProof(otherSecret, 6, 40, nonce, START + 1);

        assertEquals(4, contact.counter(ProtocolCounter.JOIN_PROOFS_REFUSED));
        assertEquals(1, otherLife.counter(ProtocolCounter.JOIN_PROOFS_REFUSED));
        assertEquals(1, otherSecret.counter(ProtocolCounter.JOIN_PROOFS_REFUSED));
        for (final DetectorNode node : new DetectorNode[] {contact, otherLife, otherSecret})
        {
            assertEquals(0, node.incarnationOf(6));
            assertEquals(0, node.incarnationOf(7));
            assertEquals(0, node.counter(ProtocolCounter.JOINS_ADMITTED));
        }
        assertEquals(1 + 4, io.joinChallenges.size(), "every refused proof draws a new challenge");
    }

    @Test
    void shouldTakeAProofInTheSlotAfterItsChallenge()
    {
        Deliver.joinRequest(contact, 6, 40, START + DELTA - 1);
        final long nonce = io.joinChallenges.get(0).value();
        Deliver.joinProof(contact, 6, 40, nonce, START + 2 * DELTA - 1);

        assertEquals(40, contact.incarnationOf(6), "a slot later, still within δ to 2δ");
    }

    @Test
    void shouldAnswerAChallengeOnlyWhileAsking()
    {
        final DetectorNode member = SixteenNodes.node(6, 0, io);
        Deliver.joinChallenge(member, 5, 0, 1234, START + 1);
        assertEquals(1, member.counter(ProtocolCounter.JOIN_CHALLENGES_IGNORED));
        assertTrue(io.sentOfType("joinProof").isEmpty());

        final DetectorNode joiner = SixteenNodes.node(6, 40, io);
        joiner.join(START);
        Deliver.joinChallenge(joiner, 7, 0, 1234, START + 1);
        assertEquals(1, joiner.counter(ProtocolCounter.JOIN_CHALLENGES_IGNORED), "it has not asked yet (its grace)");

        final long t = askOnce(joiner, io);
        Deliver.joinChallenge(joiner, 7, 0, 5678, t);
        assertEquals(1, io.sentOfType("joinProof").size());
        assertEquals(7, io.sentOfType("joinProof").get(0).to());
        assertEquals(5678, io.sentOfType("joinProof").get(0).value());
        assertEquals(1, joiner.counter(ProtocolCounter.JOIN_PROOFS_SENT));
    }

    @Test
    void shouldAdmitAJoinerThroughRequestChallengeAndProof()
    {
        final RecordingChannels joinerIo = new RecordingChannels();
        final DetectorNode joiner = SixteenNodes.node(6, 40, joinerIo);
        joiner.join(START);
        final long t = askOnce(joiner, joinerIo);
        Deliver.joinRequest(contact, 6, 40, t);
        Deliver.joinChallenge(joiner, 5, 0, io.joinChallenges.get(0).value(), t + 1);
        Deliver.joinProof(contact, 6, 40, joinerIo.sentOfType("joinProof").get(0).value(), t + 2);

        assertEquals(40, contact.incarnationOf(6));
        assertEquals(1, io.sentOfType("view").size());
        assertEquals(0, contact.counter(ProtocolCounter.JOIN_PROOFS_REFUSED));
    }

    @Test
    void shouldChallengeTheLowestRanksReformPollTakenAsItsJoinRequest()
    {
        // rank 0's nearest live successor is rank 1: it takes the poll for rank 0's join request
        final DetectorNode successor = SixteenNodes.node(1, 0, io);
        final long epoch = successor.viewEpoch();
        Deliver.reformPoll(successor, 0, 40, 77, START + 10);

        assertEquals(epoch, successor.viewEpoch());
        assertEquals(0, successor.incarnationOf(0));
        assertEquals(1, io.joinChallenges.size());
        assertEquals(0, io.joinChallenges.get(0).to());
    }

    @Test
    void shouldActOnARequestAtOnceWithTheRuleBroken()
    {
        // negative control (BREAK_JOIN_CHALLENGE): the old rule, a newer incarnation taken as proof of the old death
        final DetectorNode broken = new DetectorNode(5, 0,
            SixteenNodes.SETTINGS.withBrokenRules(BrokenRules.BREAK_JOIN_CHALLENGE), new DoubleHypercubeSchedule(),
            io, io, io, START);
        Deliver.joinRequest(broken, 6, 40, START + 10);

        assertEquals(40, broken.incarnationOf(6));
        assertTrue(io.events.contains("failure 6 DETECTED by 5 at " + (START + 10)), io.events.toString());
        assertTrue(io.joinChallenges.isEmpty());
    }

    /**
     * Run a joiner's duty cycle until it has sent its first JOIN_REQUEST (its startup grace over).
     *
     * @return the time it asked.
     */
    private static long askOnce(final DetectorNode joiner, final RecordingChannels joinerIo)
    {
        for (long t = START; t < START + 1_000 * DELTA; t += ETA)
        {
            joiner.doWork(t);
            if (!joinerIo.sentOfType("joinRequest").isEmpty())
            {
                return t;
            }
        }
        throw new AssertionError("the joiner never asked");
    }
}
