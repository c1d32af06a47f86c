package io.ringwatch.transport.rdma;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.protocol.Deliver;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node whose HCA port goes down stops hearing its emitter. The protocol alone would have it suspect that healthy
 * emitter after δ, then the next one, and so on. With the runtime rule {@link RdmaHeartbeats} is built for (stop a
 * node whose local port is down, as for a lost media driver), only its observer suspects it and nobody else is
 * suspected. Real {@link DetectorNode}s over {@link RdmaHeartbeats} on the in-memory fabric; control messages are
 * delivered in memory one step later. The second test is the negative control: without the rule the deaf node does
 * suspect a healthy one.
 */
class RdmaPortDownTest
{
    private static final int N = 6;
    private static final int DEAF = 3;
    private static final long ETA_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long DELTA_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(100);

    private record Message(int type, int from, int to, int deadRank, int source, long sourceIncarnation,
        long sequence, RankArray deadSet)
    {
    }

    private final InMemoryFabric fabric = new InMemoryFabric(TimeUnit.MILLISECONDS.toNanos(3));
    private final RdmaHeartbeats[] heartbeats = new RdmaHeartbeats[N];
    private final DetectorNode[] nodes = new DetectorNode[N];
    private final boolean[] stopped = new boolean[N];
    private final ArrayDeque<Message> inFlight = new ArrayDeque<>();
    private final ReusableNotice delivered = new ReusableNotice();

    private void start()
    {
        final RdmaEndpoint[] endpoints = RdmaHeartbeatsTest.endpoints(N);
        // the paper's rules (no probes): this test is about the runtime's stop rule, not the partition policy's
        final ProtocolSettings settings = ProtocolSettings.of(N, ETA_NS, DELTA_NS)
            .withStartupGraceNs(TimeUnit.MILLISECONDS.toNanos(20))
            .withPartitionPolicy(PartitionPolicy.NONE);
        for (int r = 0; r < N; r++)
        {
            final int rank = r;
            heartbeats[r] = new RdmaHeartbeats(RdmaHeartbeatsTest.context(fabric, r, endpoints,
                fabric.node(RdmaHeartbeats.preConnectCount(N) + 1)));
            final ControlChannel control = new ControlChannel()
            {
                public void sendNewObserver(final int emitterRank)
                {
                    inFlight.add(new Message(0, rank, emitterRank, 0, 0, 0, 0, null));
                }

                public void sendLeave(final int observerRank)
                {
                }

                public void sendProbe(final int toRank, final long token)
                {
                }

                public void sendProbeAck(final int toRank, final long token)
                {
                }

                public void sendNotice(final int toRank, final Notice notice)
                {
                    inFlight.add(new Message(1, rank, toRank, notice.deadRank(), notice.sourceRank(),
                        notice.sourceIncarnation(), notice.sequence(), RankArray.copyOf(notice.deadSet())));
                }

                public void sendViewDigest(final int toRank, final long digest)
                {
                }
            };
            final MembershipListener listener = new MembershipListener()
            {
                public void onFailure(final int dead, final long nowNs, final FailureCause cause, final int by)
                {
                }

                public void onExcluded(final long nowNs, final ExclusionCause cause, final int reporterRank)
                {
                    stopped[rank] = true;
                }

                public void onViewChange(final long viewEpoch, final int deadCount, final long nowNs)
                {
                    heartbeats[rank].onViewChange(nodes[rank].deadSet(), nowNs);
                }
            };
            nodes[r] = new DetectorNode(r, 0, settings, new DoubleHypercubeSchedule(), heartbeats[r], control,
                listener, 0);
        }
    }

    private void run(final long durationNs, final boolean stopDeafNodes)
    {
        final long end = fabric.nowNs + durationNs;
        while (fabric.nowNs - end < 0)
        {
            fabric.nowNs += STEP_NS;
            final long now = fabric.nowNs;
            for (int pending = inFlight.size(); pending > 0; pending--)
            {
                final Message m = inFlight.poll();
                if (stopped[m.to])
                {
                    continue;
                }
                if (m.type == 0)
                {
                    final RemoteSlot slot = heartbeats[m.from].localSlot();
                    // the live agent's path: the protocol hands the frame's descriptor to RdmaHeartbeats
                    Deliver.newObserver(nodes[m.to], m.from, InboundFrame.UNKNOWN_INCARNATION, m.to, slot.rkey(), slot.address(), slot.length(), now);
                }
                else
                {
                    Deliver.notice(nodes[m.to], delivered.set(m.deadRank, m.source, m.sourceIncarnation, m.sequence,
                        m.deadSet), m.from, InboundFrame.UNKNOWN_INCARNATION, now);
                }
            }
            for (int r = 0; r < N; r++)
            {
                if (stopped[r])
                {
                    continue;
                }
                heartbeats[r].poll(now);
                if (stopDeafNodes && !heartbeats[r].isLocalPortActive())
                {
                    stopped[r] = true; // the runtime's rule: a node that cannot hear stops, like a lost driver
                    continue;
                }
                nodes[r].doWork(now);
            }
        }
    }

    private void closeAll()
    {
        for (final RdmaHeartbeats h : heartbeats)
        {
            h.close();
        }
    }

    @Test
    void shouldHaveOnlyTheDeafNodesObserverSuspectItWhenTheDeafNodeStops()
    {
        start();
        try
        {
            run(TimeUnit.MILLISECONDS.toNanos(60), true);
            for (int r = 0; r < N; r++)
            {
                assertEquals(0, nodes[r].counter(ProtocolCounter.SUSPICIONS), "no suspicion in a healthy start, rank " + r);
                assertTrue(heartbeats[r].counters().beatsPosted() > 20, "rank " + r + " beats by RDMA WRITE");
            }

            fabric.portActive(fabric.nodeOf(DEAF), false);
            run(TimeUnit.MILLISECONDS.toNanos(100), true);

            assertTrue(stopped[DEAF], "the deaf node stopped");
            assertEquals(0, nodes[DEAF].counter(ProtocolCounter.SUSPICIONS), "the deaf node suspected nobody");
            assertEquals(1, nodes[DEAF + 1].counter(ProtocolCounter.SUSPICIONS), "its observer suspected it");
            for (int r = 0; r < N; r++)
            {
                if (r == DEAF)
                {
                    continue;
                }
                assertEquals(RankArray.of(DEAF).toString(), RankArray.copyOf(nodes[r].deadSet()).toString(),
                    "survivor " + r + "'s dead set");
                if (r != DEAF + 1)
                {
                    assertEquals(0, nodes[r].counter(ProtocolCounter.SUSPICIONS), "survivor " + r + " suspected nobody");
                }
            }
            assertEquals(DEAF + 1, nodes[DEAF - 1].observer(), "the ring is mended around the deaf node");
            assertTrue(heartbeats[DEAF - 1].counters().mendsOntoPreConnected() == 1 &&
                heartbeats[DEAF - 1].counters().mendsAwaitingConnection() == 0, "mended onto a pre-connected observer");
        }
        finally
        {
            closeAll();
        }
    }

    @Test
    void shouldLetTheDeafNodeSuspectAHealthyEmitterWithoutTheStopRule()
    {
        start();
        try
        {
            run(TimeUnit.MILLISECONDS.toNanos(60), false);
            fabric.portActive(fabric.nodeOf(DEAF), false);
            run(TimeUnit.MILLISECONDS.toNanos(100), false);

            assertFalse(heartbeats[DEAF].isLocalPortActive());
            assertTrue(nodes[DEAF].counter(ProtocolCounter.SUSPICIONS) >= 1, "a deaf node left running suspects its healthy emitter");
        }
        finally
        {
            closeAll();
        }
    }
}
