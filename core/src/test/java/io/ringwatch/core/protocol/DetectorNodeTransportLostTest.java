package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.spi.ExclusionCause;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node whose own transport is gone stops at once and blames nobody for the silence that follows.
 */
class DetectorNodeTransportLostTest
{
    private static final int N = 8;
    private static final long ETA = 10;
    private static final long DELTA = 100;
    private static final long START = 1_000;

    private final RecordingChannels io = new RecordingChannels();
    private final DetectorNode node =
        new DetectorNode(3, 1, ProtocolSettings.of(N, ETA, DELTA), new DoubleHypercubeSchedule(), io, io, io, START);

    @Test
    void shouldStopWithoutSuspectingAnyoneAfterTransportLost()
    {
        assertStopsSilently(
            () -> node.onOwnTransportLost(ExclusionCause.DRIVER_LOST, START + 2 * DELTA + 1), "DRIVER_LOST");
    }

    @Test
    void shouldStopWithoutSuspectingAnyoneAfterALocalTransportFault()
    {
        assertStopsSilently(
            () -> node.onOwnTransportLost(ExclusionCause.TRANSPORT_FAULT, START + 2 * DELTA + 1), "TRANSPORT_FAULT");
    }

    private void assertStopsSilently(final Runnable fault, final String cause)
    {
        for (long t = START, counter = 1; t <= START + 2 * DELTA; t += ETA, counter++)
        {
            io.deposit(2, counter);
            node.doWork(t);
        }
        final int beatsBefore = io.sentOfType("heartbeat").size();

        fault.run();

        assertEquals(NodeState.EXCLUDED, node.state());
        assertTrue(io.events.contains("exclusion cause " + cause), io.events.toString());
        assertTrue(io.events.contains("excluded by 3 at " + (START + 2 * DELTA + 1)), io.events.toString());
        // the emitter falls silent for 10δ: a node that could still judge would suspect it after δ
        for (long t = START + 2 * DELTA + 2; t <= START + 12 * DELTA; t += ETA)
        {
            node.doWork(t);
        }
        assertEquals(0, node.counter(ProtocolCounter.SUSPICIONS));
        assertEquals(0, node.counter(ProtocolCounter.NOTICES_ORIGINATED));
        assertEquals(0, io.notices.size());
        assertEquals(beatsBefore, io.sentOfType("heartbeat").size(), "no heartbeat after the loss");
        assertEquals(0, node.deadSet().size());
    }

    /**
     * Found by the 30-minute nemesis: a joiner whose driver was killed kept its state, so nothing told its process
     * the node had stopped, and the process waited for ever on a dead agent.
     */
    @Test
    void shouldStopAJoinerThatLosesItsTransport()
    {
        final DetectorNode joiner =
            new DetectorNode(6, 2, ProtocolSettings.of(N, ETA, DELTA), new DoubleHypercubeSchedule(), io, io, io, START);
        joiner.join(START);
        assertEquals(NodeState.JOINING, joiner.state());

        joiner.onOwnTransportLost(ExclusionCause.DRIVER_LOST, START + 1);

        assertEquals(NodeState.EXCLUDED, joiner.state());
        assertTrue(io.events.contains("exclusion cause DRIVER_LOST"), io.events.toString());
        final int asks = io.sentOfType("joinRequest").size();
        for (long t = START + 2; t <= START + 10 * DELTA; t += ETA)
        {
            joiner.doWork(t);
        }
        assertEquals(asks, io.sentOfType("joinRequest").size(), "a stopped joiner asks nobody");
    }

    @Test
    void shouldKeepTheFirstCauseWhenAlreadyStopped()
    {
        node.leave(START);
        node.onOwnTransportLost(ExclusionCause.DRIVER_LOST, START + 1);

        assertEquals(NodeState.LEFT, node.state());
        assertEquals(1, io.events.stream().filter(e -> e.startsWith("exclusion cause")).count(), io.events.toString());
    }
}
