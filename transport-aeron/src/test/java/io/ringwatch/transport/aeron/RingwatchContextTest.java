package io.ringwatch.transport.aeron;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.protocol.StartIncarnation;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.nativeconfig.TuningProfile;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.internal.Drivers;
import io.ringwatch.transport.aeron.internal.IncarnationFile;
import io.ringwatch.transport.aeron.launch.FreePorts;
import io.ringwatch.transport.rdma.RdmaEndpoint;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RingwatchContextTest
{
    @TempDir
    File dir;

    private static ClusterConfig cluster(final int controlPort, final int heartbeatPort)
    {
        return new ClusterConfig(1, TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(10), List.of(
            new ClusterConfig.Member(0, "localhost", controlPort, heartbeatPort),
            new ClusterConfig.Member(1, "localhost", controlPort + 2, heartbeatPort + 2)));
    }

    @Test
    void shouldTakeTimingFromClusterFileAndFillDefaults()
    {
        // an aeron.dir of its own: an incarnation file some other run left in the default one would make this a restart
        final long floor = System.currentTimeMillis() << StartIncarnation.CLOCK_SHIFT;
        final RingwatchContext ctx = new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(20000, 20001))
            .rank(1).aeronDirectoryName(dir.getAbsolutePath()).conclude();
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1), ctx.protocolSettings().heartbeatPeriodNs());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(10), ctx.protocolSettings().suspicionTimeoutNs());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(5), ctx.protocolSettings().pauseThresholdNs());
        assertEquals(2, ctx.protocolSettings().clusterSize());
        assertTrue(ctx.incarnation() >= floor, "a seed starts by the joiners' rule, the clock its floor: " +
            ctx.incarnation());
        assertFalse(Files.exists(IncarnationFile.fileFor(dir.getAbsolutePath(), 1, 1)), "conclude records nothing");
        assertTrue(ctx.listensFirst(), "a seed without an incarnation file asks its peers whether its cluster is up");
        assertEquals(-1, ctx.liveClusterHeardFrom());
        assertFalse(new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(20000, 20001)).rank(1)
            .aeronDirectoryName(dir.getAbsolutePath()).listenFirst(false).conclude().listensFirst());
        assertFalse(new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(20000, 20001)).rank(1)
            .aeronDirectoryName(dir.getAbsolutePath()).join(true).conclude().listensFirst(), "a join asks anyway");
    }

    @Test
    void shouldFailConcludeNamingTheOffendingValue()
    {
        assertConcludeFails("rank 2 out of range", new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2)).rank(2));
        assertConcludeFails("no cluster", new RingwatchContext().authMode(AuthMode.OFF).rank(0));
        assertConcludeFails("suspicion-timeout (δ) 1ms must exceed heartbeat-period (η) 1ms",
            new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2)).rank(0).suspicionTimeoutNs(1_000_000));
        assertConcludeFails("ringwatch.idle.strategy=spinny",
            new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2)).rank(0).idleStrategyName("spinny"));
        assertConcludeFails("ringwatch.fragment.limit must be > 0: 0",
            new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2)).rank(0).fragmentLimit(0));
        assertConcludeFails("ringwatch.realtime.priority must be 0 (off) or in [1, 99]: 100",
            new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2)).rank(0).realtimePriority(100));
        assertConcludeFails("needs a dedicated core (ringwatch.cpu)", new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2))
            .rank(0).realtimePriority(10).idleStrategy(new org.agrona.concurrent.BusySpinIdleStrategy()));
        assertConcludeFails("ringwatch.precreate.all.max must be >= 0: -1",
            new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2)).rank(0).preCreateAllUpTo(-1));
        assertConcludeFails("cannot read cluster file",
            new RingwatchContext().authMode(AuthMode.OFF).clusterFile(new File(dir, "missing.txt").toPath()).rank(0));
    }

    @Test
    void shouldRefuseRdmaUnlessEveryMemberHasAnRdmaEndpointNamingTheRankAndTheSyntax()
    {
        final ClusterConfig oneMissing = new ClusterConfig(1, -1, -1, List.of(
            new ClusterConfig.Member(0, "10.0.0.1", 20000, 20001, new RdmaEndpoint("192.168.100.1", 7471)),
            new ClusterConfig.Member(1, "10.0.0.2", 20000, 20001)));

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new RingwatchContext().authMode(AuthMode.OFF).cluster(oneMissing).rank(0).transport(TransportMode.RDMA).conclude());
        assertEquals("transport=rdma needs an RDMA endpoint for every member, and rank 1 has none: end its " +
            "cluster-file line with rdma=host:port, the IPoIB or RoCE address its RDMA connection manager listens on " +
            "('rank host controlPort heartbeatPort [rdma=host:port]', e.g. '1 10.0.0.2 20000 20001 " +
            "rdma=192.168.100.2:7471')", ex.getMessage());

        // the same cluster is fine for the transports that do not use the column
        new RingwatchContext().authMode(AuthMode.OFF).cluster(oneMissing).rank(0).transport(TransportMode.UDP).conclude();
        final ClusterConfig complete = new ClusterConfig(1, -1, -1, List.of(oneMissing.member(0),
            oneMissing.member(1).withRdma(new RdmaEndpoint("192.168.100.2", 7471))));
        assertEquals(TransportMode.RDMA,
            new RingwatchContext().authMode(AuthMode.OFF).cluster(complete).rank(1).transport(TransportMode.RDMA).conclude().transport());
    }

    @Test
    void shouldTakeTheTransportAndDriverFromTheClusterFilesHostsUnlessSet()
    {
        final ClusterConfig oneHost = cluster(20000, 20001);
        final RingwatchContext local = new RingwatchContext().authMode(AuthMode.OFF).cluster(oneHost).rank(0).conclude();
        assertEquals(TransportMode.IPC, local.transport());
        assertTrue(local.embeddedDriver());

        final ClusterConfig twoHosts = new ClusterConfig(1, -1, -1, List.of(
            new ClusterConfig.Member(0, "10.0.0.1", 20000, 20001), new ClusterConfig.Member(1, "10.0.0.1", 20002, 20003),
            new ClusterConfig.Member(2, "10.0.0.2", 20000, 20001)));
        final RingwatchContext spread = new RingwatchContext().authMode(AuthMode.OFF).cluster(twoHosts).rank(1).conclude();
        assertEquals(TransportMode.UDP, spread.transport());
        assertFalse(spread.embeddedDriver(), "several hosts: the host's driver");

        assertConcludeFails("transport ipc reaches one host only, and the cluster file puts rank 0 on 10.0.0.1 and " +
            "rank 2 on 10.0.0.2: use --transport udp", new RingwatchContext().authMode(AuthMode.OFF).cluster(twoHosts).rank(0)
            .transport(TransportMode.IPC));
        // what is set explicitly stays as set
        final RingwatchContext explicit = new RingwatchContext().authMode(AuthMode.OFF).cluster(oneHost).rank(0).transport(TransportMode.UDP)
            .embeddedDriver(false).conclude();
        assertEquals(TransportMode.UDP, explicit.transport());
        assertFalse(explicit.embeddedDriver());
    }

    @Test
    void shouldParseEveryTransportByItsCommandLineName()
    {
        for (final TransportMode mode : TransportMode.values())
        {
            assertEquals(mode, TransportMode.parse(mode.cliName().toUpperCase()));
        }
        assertEquals(List.of(false, true, true), List.of(TransportMode.IPC.controlOverUdp(),
            TransportMode.UDP.controlOverUdp(), TransportMode.RDMA.controlOverUdp()));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> TransportMode.parse("verbs"));
        assertEquals("transport must be ipc, udp or rdma: verbs", ex.getMessage());
    }

    @Test
    void shouldRefuseASecondConcludeNamingTheContext()
    {
        final RingwatchContext ctx = new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2)).rank(1).conclude();

        final IllegalStateException ex = assertThrows(IllegalStateException.class, ctx::conclude);
        assertEquals("RingwatchContext(rank 1 of cluster 1) already concluded: a context launches one node",
            ex.getMessage());
    }

    @Test
    void shouldRefuseToLaunchAConcludedContextBeforeBuildingAnything()
    {
        final RingwatchContext ctx = new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2)).rank(0)
            .embeddedDriver(false).aeronDirectoryName(new File(dir, "no-driver").getAbsolutePath()).conclude();

        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> RingwatchNode.launch(ctx));
        assertTrue(ex.getMessage().contains("already concluded"), ex.getMessage());
        assertFalse(new File(dir, "no-driver").exists(), "no slot or view file was created");
    }

    @Test
    void shouldRefuseASecondConcludeEvenAfterAFailedOne()
    {
        final RingwatchContext ctx = new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2)).rank(2);
        assertThrows(IllegalArgumentException.class, ctx::conclude);

        assertThrows(IllegalStateException.class, ctx::conclude);
        assertThrows(IllegalStateException.class, () -> ctx.rank(1));
    }

    @Test
    void shouldRefuseEverySetterAfterConclude()
    {
        final RingwatchContext ctx = new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2)).rank(0).conclude();

        assertSetterRefused("rank", () -> ctx.rank(1));
        assertSetterRefused("cluster", () -> ctx.cluster(cluster(3, 4)));
        assertSetterRefused("clusterFile", () -> ctx.clusterFile(new File(dir, "c.txt").toPath()));
        assertSetterRefused("incarnation", () -> ctx.incarnation(7));
        assertSetterRefused("transport", () -> ctx.transport(TransportMode.UDP));
        assertSetterRefused("broadcast", () -> ctx.broadcast(BroadcastKind.BINOMIAL_GRAPH));
        assertSetterRefused("profile", () -> ctx.profile(TuningProfile.LOW_LATENCY));
        assertSetterRefused("heartbeatPeriodNs", () -> ctx.heartbeatPeriodNs(1));
        assertSetterRefused("suspicionTimeoutNs", () -> ctx.suspicionTimeoutNs(1));
        assertSetterRefused("pauseThresholdNs", () -> ctx.pauseThresholdNs(1));
        assertSetterRefused("startupGraceNs", () -> ctx.startupGraceNs(1));
        assertSetterRefused("idleStrategyName", () -> ctx.idleStrategyName("yield"));
        assertSetterRefused("idleStrategy", () -> ctx.idleStrategy(new BusySpinIdleStrategy()));
        assertSetterRefused("cpu", () -> ctx.cpu(1));
        assertSetterRefused("pinner", () -> ctx.pinner(ThreadPinner.UNAVAILABLE));
        assertSetterRefused("realtimePriority", () -> ctx.realtimePriority(1));
        assertSetterRefused("preCreateAllUpTo", () -> ctx.preCreateAllUpTo(1));
        assertSetterRefused("preloadClasses", () -> ctx.preloadClasses(false));
        assertSetterRefused("embeddedDriver", () -> ctx.embeddedDriver(false));
        assertSetterRefused("aeronDirectoryName", () -> ctx.aeronDirectoryName("x"));
        assertSetterRefused("fragmentLimit", () -> ctx.fragmentLimit(1));
        assertSetterRefused("controlStreamId", () -> ctx.controlStreamId(1));
        assertSetterRefused("sendQueueCapacity", () -> ctx.sendQueueCapacity(1));
        assertSetterRefused("nanoClock", () -> ctx.nanoClock(System::nanoTime));
        assertSetterRefused("threadingMode", () -> ctx.threadingMode(ThreadingMode.INVOKER));
        assertSetterRefused("startGate", () -> ctx.startGate(node -> {}));
        assertSetterRefused("listener", () -> ctx.listener(MembershipListener.NO_OP));
        assertSetterRefused("rdmaVerbs", () -> ctx.rdmaVerbs(null));
        assertEquals(0, ctx.rank(), "a refused setter changes nothing");
    }

    @Test
    void shouldRunOnADedicatedThreadUnlessToldOtherwise()
    {
        assertEquals(ThreadingMode.DEDICATED, new RingwatchContext().authMode(AuthMode.OFF).threadingMode());
        assertEquals(ThreadingMode.UNSTARTED, ThreadingMode.parse("Unstarted"));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ThreadingMode.parse("shared"));
        assertEquals("ringwatch.threading.mode must be dedicated, invoker or unstarted: shared", ex.getMessage());
        assertConcludeFails("threadingMode must be set",
            new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2)).rank(0).threadingMode(null));
    }

    @Test
    void shouldReportMissingDriver()
    {
        final RingwatchContext ctx = new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(1, 2)).rank(0)
            .embeddedDriver(false).aeronDirectoryName(new File(dir, "no-driver").getAbsolutePath());
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> RingwatchNode.launch(ctx));
        assertTrue(ex.getMessage().startsWith("no media driver at aeron.dir="), ex.getMessage());
    }

    /**
     * A rank restarted on its host finds its control port still bound by the driver for its previous life, until the
     * driver times that client out: the new node waits for it instead of failing. A client that stops calling its
     * conductor is, to the driver, exactly a killed process.
     */
    @Test
    void shouldWaitWhileItsOwnDriverHoldsTheControlPortForASilentClientAndThenStart()
    {
        final File aeronDir = new File(dir, "aeron");
        final int[] ports = FreePorts.udp(4);
        final ClusterConfig cluster = new ClusterConfig(1, TimeUnit.MILLISECONDS.toNanos(1),
            TimeUnit.MILLISECONDS.toNanos(10), List.of(new ClusterConfig.Member(0, "localhost", ports[0], ports[1]),
            new ClusterConfig.Member(1, "localhost", ports[2], ports[3])));
        Aeron previousLife = null;
        try (MediaDriver driver = MediaDriver.launch(Drivers.lowFootprint(aeronDir.getAbsolutePath())))
        {
            previousLife = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())
                .useConductorAgentInvoker(true));
            previousLife.addSubscription("aeron:udp?endpoint=localhost:" + ports[0], 1);
            assertThrows(SocketException.class, () -> new DatagramSocket(new InetSocketAddress("localhost", ports[0]))
                .close(), "the driver holds the port");

            final RingwatchContext ctx = new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster).rank(0).transport(TransportMode.UDP)
                .embeddedDriver(false).aeronDirectoryName(driver.aeronDirectoryName())
                .threadingMode(ThreadingMode.UNSTARTED);
            try (RingwatchNode node = RingwatchNode.launch(ctx))
            {
                assertEquals(0, node.context().rank());
            }
        }
        finally
        {
            CloseHelper.quietClose(previousLife);
            IoUtil.delete(aeronDir, true);
        }
    }

    @Test
    void shouldReportPortInUse() throws Exception
    {
        final File aeronDir = new File(dir, "aeron");
        try (DatagramSocket squatter = new DatagramSocket(new InetSocketAddress("localhost", 0));
            MediaDriver driver = MediaDriver.launch(Drivers.lowFootprint(aeronDir.getAbsolutePath())))
        {
            final int port = squatter.getLocalPort();
            final RingwatchContext ctx = new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(port, port + 1)).rank(0)
                .transport(TransportMode.UDP).embeddedDriver(false).aeronDirectoryName(driver.aeronDirectoryName());
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> RingwatchNode.launch(ctx));
            assertTrue(ex.getMessage().startsWith("port in use: localhost:" + port), ex.getMessage());
        }
        finally
        {
            IoUtil.delete(aeronDir, true);
        }
    }

    @Test
    void shouldStartWhenAPortBoundWithoutADriverCounterComesFreeWithinAMoment() throws Exception
    {
        // as a driver's receiver closes a dropped client's socket a moment after its conductor freed the counter
        final File aeronDir = new File(dir, "aeron");
        final DatagramSocket closing = new DatagramSocket(new InetSocketAddress("localhost", 0));
        final int port = closing.getLocalPort();
        final Thread closer = new Thread(() ->
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
            closing.close();
        });
        try (MediaDriver driver = MediaDriver.launch(Drivers.lowFootprint(aeronDir.getAbsolutePath())))
        {
            final RingwatchContext ctx = new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster(port, port + 1))
                .rank(0).transport(TransportMode.UDP).embeddedDriver(false)
                .aeronDirectoryName(driver.aeronDirectoryName()).threadingMode(ThreadingMode.UNSTARTED);
            closer.start();
            try (RingwatchNode node = RingwatchNode.launch(ctx))
            {
                assertTrue(closing.isClosed(), "the node waited for the port");
                assertEquals(0, node.context().rank());
            }
        }
        finally
        {
            closer.join();
            closing.close();
            IoUtil.delete(aeronDir, true);
        }
    }

    private static void assertSetterRefused(final String setting, final Executable setter)
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class, setter);
        assertEquals("context already concluded: set " + setting + " before launch", ex.getMessage());
    }

    private static void assertConcludeFails(final String expected, final RingwatchContext ctx)
    {
        final RuntimeException ex = assertThrows(RuntimeException.class, ctx::conclude);
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
    }
}
