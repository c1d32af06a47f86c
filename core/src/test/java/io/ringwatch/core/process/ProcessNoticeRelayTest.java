package io.ringwatch.core.process;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessNoticeRelayTest
{
    private static final int N = 8;
    private static final int K = 4;

    private final List<Integer> sentTo = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final RankArray nodeDead = new RankArray(4);
    private DetectorNode node;
    private ProcessNoticeRelay relay;

    private void build(final int rank)
    {
        final ProtocolSettings settings = ProtocolSettings.of(N, 100, 1000);
        final SilentChannels silent = new SilentChannels();
        node = new DetectorNode(rank, 0, settings, new DoubleHypercubeSchedule(), silent, silent, silent, 0);
        relay = new ProcessNoticeRelay(node, JobLayout.uniform(N, K), new DoubleHypercubeSchedule(), 16,
            (to, notice) -> sentTo.add(to),
            (process, nowNs, cause, reporter) -> failures.add(process + "/" + cause + "/" + reporter));
    }

    @Test
    void shouldAnnounceALocalProcessFailureOnceToTheSameTargetsAsANodeNotice()
    {
        build(2);
        assertTrue(relay.onLocalProcessFailure(1, 10));
        assertFalse(relay.onLocalProcessFailure(1, 11), "a process dies once");
        assertEquals(List.of("9/1/2"), failures);
        final int[] expected = new int[16];
        final int count = new DoubleHypercubeSchedule().neighbours(2, 2, nodeDead, N, expected);
        final List<Integer> targets = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            if (expected[i] != 2)
            {
                targets.add(expected[i]);
            }
        }
        assertEquals(targets, sentTo);
        assertTrue(relay.isDead(9));
        assertFalse(relay.isDead(8));
    }

    @Test
    void shouldAnnounceSeveralLocalFailuresInOneBroadcast()
    {
        final List<String> carried = new ArrayList<>();
        final SilentChannels silent = new SilentChannels();
        node = new DetectorNode(2, 0, ProtocolSettings.of(N, 100, 1000), new DoubleHypercubeSchedule(), silent, silent,
            silent, 0);
        relay = new ProcessNoticeRelay(node, JobLayout.uniform(N, K), new DoubleHypercubeSchedule(), 16,
            (to, notice) -> carried.add(to + ":" + notice.deadProcesses()),
            (process, nowNs, cause, reporter) -> failures.add(process + "/" + cause + "/" + reporter));
        assertTrue(relay.recordLocalFailure(0, 10));
        assertTrue(relay.recordLocalFailure(3, 10));
        assertTrue(carried.isEmpty(), "nothing sent before the announcement");
        assertTrue(relay.announceLocalFailures());
        assertEquals(1, relay.noticesOriginated());
        assertEquals(List.of("8/1/2", "11/1/2"), failures);
        assertTrue(carried.stream().allMatch(c -> c.endsWith("[8, 11]")), carried.toString());
    }

    @Test
    void shouldMergeForwardOnceAndDropDuplicates()
    {
        build(0);
        final ReusableProcessNotice notice = new ReusableProcessNotice()
            .set(5, 0, 1, new RankArray(1), RankArray.of(20, 22));
        relay.onNotice(notice, 5, 10);
        assertEquals(List.of("20/1/5", "22/1/5"), failures);
        final int forwarded = sentTo.size();
        assertTrue(forwarded > 0);
        relay.onNotice(notice, 4, 11);
        assertEquals(forwarded, sentTo.size(), "forwarded once");
        assertEquals(1, relay.noticesDuplicate());
    }

    @Test
    void shouldRefuseNoticesNamingProcessesTheSourceDoesNotHost()
    {
        build(0);
        relay.onNotice(new ReusableProcessNotice().set(5, 0, 1, new RankArray(1), RankArray.of(3)), 5, 10);
        assertEquals(List.of(), failures);
        assertEquals(List.of(), sentTo);
        assertEquals(1, relay.noticesRefused());
    }

    @Test
    void shouldReportEveryProcessOfADeadNodeExceptThoseAlreadyDead()
    {
        build(0);
        relay.onNotice(new ReusableProcessNotice().set(5, 0, 1, new RankArray(1), RankArray.of(21)), 5, 10);
        failures.clear();
        relay.onNodeFailure(5, 20, 4);
        assertEquals(List.of("20/2/4", "22/2/4", "23/2/4"), failures);
    }
}
