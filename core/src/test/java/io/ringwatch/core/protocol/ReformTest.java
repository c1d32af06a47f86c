package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.ringwatch.core.protocol.SixteenNodes.DELTA;
import static io.ringwatch.core.protocol.SixteenNodes.ETA;
import static io.ringwatch.core.protocol.SixteenNodes.N;
import static io.ringwatch.core.protocol.SixteenNodes.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The re-form rule ({@link Reform}) on one node: the leader polls once it could not join for 4δ, re-forms only when
 * every other rank answered within the lease, and a joiner that answered takes a view from the leader alone.
 */
class ReformTest
{
    private static final int LEADER_INCARNATION = 7;

    private final RecordingChannels io = new RecordingChannels();

    private DetectorNode joiner(final int rank, final long incarnation)
    {
        final DetectorNode node = SixteenNodes.node(rank, incarnation, io);
        node.join(START);
        return node;
    }

    private static void runUntil(final DetectorNode node, final long fromNs, final long untilNs)
    {
        for (long t = fromNs; t < untilNs; t += ETA / 2)
        {
            node.doWork(t);
        }
    }

    private List<RecordingChannels.Sent> polls()
    {
        return io.sentOfType("reformPoll");
    }

    private long pollOnce(final DetectorNode leader)
    {
        final long askFromNs = leader.armedAtNs();
        runUntil(leader, START, askFromNs + 4 * DELTA);
        assertTrue(polls().isEmpty(), "no poll while the leader has asked for less than 4δ");
        leader.doWork(askFromNs + 4 * DELTA);
        assertEquals(N - 1, polls().size(), "every other rank of the cluster file is polled");
        return polls().get(0).value();
    }

    @Test
    void shouldReformAsTheLoneSeedOnceEveryOtherRankAnsweredBothPollsAndThenAdmitThem()
    {
        final DetectorNode leader = joiner(0, LEADER_INCARNATION);
        final long token = pollOnce(leader);
        assertTrue(polls().stream().allMatch((s) -> s.value() == token));
        final long pollNs = leader.armedAtNs() + 4 * DELTA;

        for (int r = 1; r < N; r++)
        {
            Deliver.reformAck(leader, r, 3, token, pollNs + r);
        }
        assertEquals(NodeState.JOINING, leader.state(), "the first poll only asks");
        assertEquals(2 * (N - 1), polls().size(), "every rank answered it: the binding poll goes out at once");
        final long binding = polls().get(N - 1).value();
        assertTrue(binding != token && polls().subList(N - 1, 2 * (N - 1)).stream().allMatch((s) -> s.value() == binding));

        for (int r = 1; r < N; r++)
        {
            assertEquals(NodeState.JOINING, leader.state(), "no re-form before rank " + r + " answered");
            Deliver.reformAck(leader, r, 3, binding, pollNs + N + r);
        }

        assertEquals(NodeState.ACTIVE, leader.state());
        assertEquals(1, leader.counter(ProtocolCounter.REFORMS));
        assertTrue(io.events.contains("join 0/" + LEADER_INCARNATION + " at " + (pollNs + 2 * N - 1)),
            "the leader reports itself up: " + io.events);
        for (int r = 1; r < N; r++)
        {
            assertFalse(leader.isAlive(r), "every other rank waits to be admitted: " + r);
        }

        Deliver.provenJoinRequest(leader, io, 4, 3, pollNs + 2 * DELTA);
        assertTrue(leader.isAlive(4), "the re-formed leader admits the ranks that ask");
        assertEquals(4, io.sentOfType("view").get(0).to());
    }

    @Test
    void shouldNotLetAReformedLeaderThatHearsNobodyDeclareTheRanksItAdmitted()
    {
        final long admittedNs = reformAndAdmit(SixteenNodes.node(0, LEADER_INCARNATION, io));
        final DetectorNode leader = lastLeader;
        runUntil(leader, admittedNs + 1, admittedNs + 6 * DELTA);

        // M is the leader alone until its view settles; with nobody heard, that count is no evidence
        assertEquals(NodeState.EXCLUDED, leader.state(), io.events::toString);
        assertTrue(io.events.contains("exclusion cause ISOLATED"), io.events::toString);
        for (final int r : ADMITTED)
        {
            assertTrue(leader.isAlive(r), "a leader that cannot hear accuses nobody: " + r);
        }
        assertTrue(io.sentOfType("notice").isEmpty(), "no notice after the admissions: " + io.sentOfType("notice"));
    }

    @Test
    void shouldDeclareEveryRankItAdmittedWhenTheStaleCountIsAllowed()
    {
        // negative control: the count over a stale M left alone, as before the rule
        final DetectorNode broken = new DetectorNode(0, LEADER_INCARNATION,
            SixteenNodes.SETTINGS.withBrokenRules(BrokenRules.BREAK_STALE_COUNT),
            new io.ringwatch.core.broadcast.DoubleHypercubeSchedule(), io, io, io, START);
        broken.join(START);
        final long admittedNs = reformAndAdmit(broken);
        runUntil(broken, admittedNs + 1, admittedNs + 6 * DELTA);
        for (final int r : ADMITTED)
        {
            assertFalse(broken.isAlive(r), "the deaf leader, M alone, declares " + r);
        }
        assertEquals(NodeState.ACTIVE, broken.state());
    }

    private static final int[] ADMITTED = {4, 5, 7};
    private DetectorNode lastLeader;

    /**
     * @return when the last of {@link #ADMITTED} was admitted by {@code leader}, re-formed by then; nothing is heard
     * from anyone afterwards.
     */
    private long reformAndAdmit(final DetectorNode leader)
    {
        lastLeader = leader;
        if (leader.state() != NodeState.JOINING)
        {
            leader.join(START);
        }
        final long token = pollOnce(leader);
        final long pollNs = leader.armedAtNs() + 4 * DELTA;
        for (int r = 1; r < N; r++)
        {
            Deliver.reformAck(leader, r, 3, token, pollNs + r);
        }
        final long binding = polls().get(N - 1).value();
        for (int r = 1; r < N; r++)
        {
            Deliver.reformAck(leader, r, 3, binding, pollNs + N + r);
        }
        assertEquals(NodeState.ACTIVE, leader.state());
        long nowNs = pollNs + 2 * N;
        for (final int r : ADMITTED)
        {
            Deliver.provenJoinRequest(leader, io, r, 3, ++nowNs);
            assertTrue(leader.isAlive(r));
        }
        // the JOINs went out; what follows is the leader's own doing
        io.sent.clear();
        return nowNs;
    }

    @Test
    void shouldNotReformWhileOneRankIsSilentOrAnswersTooLateOrToAnOldPoll()
    {
        final DetectorNode leader = joiner(0, LEADER_INCARNATION);
        final long token = pollOnce(leader);
        final long pollNs = leader.armedAtNs() + 4 * DELTA;

        for (int r = 1; r < N - 1; r++)
        {
            Deliver.reformAck(leader, r, 3, token, pollNs + r);
        }
        Deliver.reformAck(leader, N - 1, 3, token, pollNs + 2 * DELTA + 1);
        assertEquals(NodeState.JOINING, leader.state(), "an answer after the lease does not count");

        io.sent.clear();
        runUntil(leader, pollNs + 2 * DELTA + 2, pollNs + 4 * DELTA);
        assertTrue(polls().isEmpty());
        leader.doWork(pollNs + 4 * DELTA);
        assertEquals(N - 1, polls().size(), "polled again one period later");
        final long next = polls().get(0).value();
        assertTrue(next != token);
        for (int r = 1; r < N; r++)
        {
            Deliver.reformAck(leader, r, 3, r == 9 ? token : next, pollNs + 4 * DELTA + 1 + r);
        }
        assertEquals(NodeState.JOINING, leader.state(), "an answer to an older poll does not count");
        assertEquals(0, leader.counter(ProtocolCounter.REFORMS));
    }

    @Test
    void shouldTakeAViewOnlyFromTheLeaderWhileBoundToItsSecondPoll()
    {
        final DetectorNode node = joiner(5, 3);
        final long t = node.armedAtNs() + DELTA;
        final IncarnationTable incarnations = new IncarnationTable(4);
        incarnations.raise(5, 3);

        // the first poll (even token) binds nobody: a contact's view right after it is taken
        final DetectorNode other = joiner(6, 3);
        Deliver.reformPoll(other, 0, LEADER_INCARNATION, 42, t);
        Deliver.view(other, 7, 0, new RankArray(4), incarnations(6, 3), t + 1);
        assertEquals(NodeState.ACTIVE, other.state());
        io.sent.clear();

        Deliver.reformPoll(node, 0, LEADER_INCARNATION, 43, t);
        assertEquals(List.of(new RecordingChannels.Sent("reformAck", 0, 43)), io.sentOfType("reformAck"));

        io.sent.clear();
        runUntil(node, t, t + DELTA);
        assertFalse(io.sentOfType("joinRequest").isEmpty());
        assertTrue(io.sentOfType("joinRequest").stream().allMatch((s) -> s.to() == 0),
            "a bound joiner asks the leader alone: " + io.sentOfType("joinRequest"));

        Deliver.view(node, 6, 0, new RankArray(4), incarnations, t + DELTA);
        assertEquals(NodeState.JOINING, node.state(), "another contact's view is refused during the lease");
        assertEquals(1, node.counter(ProtocolCounter.REFORM_VIEWS_REFUSED));

        Deliver.view(node, 6, 0, new RankArray(4), incarnations, t + 2 * DELTA);
        assertEquals(NodeState.ACTIVE, node.state(), "once the lease is over any contact may admit it");
    }

    private static IncarnationTable incarnations(final int rank, final long incarnation)
    {
        final IncarnationTable table = new IncarnationTable(4);
        table.raise(rank, incarnation);
        return table;
    }

    @Test
    void shouldLetOnlyTheLeadersNearestLiveSuccessorAdmitItAndIgnorePollsFromAnyOtherRank()
    {
        final DetectorNode member = SixteenNodes.node(1, 0, io);

        Deliver.reformPoll(member, 3, 2, 1, START + 10);
        assertTrue(io.sent.isEmpty(), "only the lowest rank polls: " + io.sent);

        Deliver.reformPoll(member, 0, LEADER_INCARNATION, 1, START + 20);
        assertTrue(io.sentOfType("reformAck").isEmpty(), "a member never answers as a joiner");
        assertEquals(1, io.joinChallenges.size(), "the poll is a join request: the leader is challenged first");
        assertEquals(0, io.joinChallenges.get(0).to());
        assertTrue(io.sentOfType("view").isEmpty());
        Deliver.joinProof(member, 0, LEADER_INCARNATION, io.joinChallenges.get(0).value(), START + 21);
        assertEquals(0, io.sentOfType("view").get(0).to(), "its nearest live successor admits the leader");
        assertEquals(LEADER_INCARNATION, member.incarnationOf(0));

        io.sent.clear();
        final DetectorNode farther = SixteenNodes.node(5, 0, io);
        Deliver.reformPoll(farther, 0, LEADER_INCARNATION, 1, START + 30);
        assertTrue(io.sent.isEmpty(), "any other member ignores the poll, or N - 1 would admit it at once: " + io.sent);
        assertEquals(1, io.joinChallenges.size(), "nor challenges it");
    }
}
