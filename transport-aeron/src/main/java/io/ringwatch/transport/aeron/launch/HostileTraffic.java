package io.ringwatch.transport.aeron.launch;

import io.aeron.protocol.DataHeaderFlyweight;
import io.aeron.protocol.HeaderFlyweight;
import io.aeron.protocol.SetupFlyweight;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.aeron.RingwatchConfiguration;
import io.ringwatch.transport.aeron.auth.KeyFile;
import io.ringwatch.transport.aeron.internal.ControlStreams;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Floods every UDP port of one node of a {@link LocalCluster} (its control port, an Aeron endpoint, and its heartbeat
 * port) with datagrams no key holder made, at a fixed rate, while a second thread samples the view files to find the
 * largest gap between two heartbeats the node saw from its emitter, and the largest its observer saw from it. Loopback
 * only, bounded in count; what {@code FloodTest} asserts on and what {@code ringwatch-perf.jar flood} prints.
 */
public final class HostileTraffic
{
    /** What the datagrams hold. */
    public enum Kind
    {
        /** 1 to 1,400 random bytes. */
        RANDOM,
        /** An Aeron DATA frame (version 0, begin and end flags) of the chosen stream id ({@link #streamId(int)}),
         * random session, term and payload of 0 to 1,024 bytes. */
        AERON_DATA,
        /** An Aeron SETUP frame of the chosen stream id for a random new session (valid term length and MTU): on a
         * stream the driver has a subscription for, each makes it create an image. */
        AERON_SETUP,
        /** 12,360 bytes (the longest frame) with a heartbeat's header and a wrong MAC, sent to the heartbeat port only
         * and from the heartbeat address of the node's emitter (bound with {@code SO_REUSEPORT}, as a local attacker,
         * or one who can spoof source addresses, would): the one junk the heartbeat socket reads. */
        SPOOFED_EMITTER
    }

    /** Which of the node's UDP ports take the flood. */
    public enum Ports
    {
        /** Control and heartbeat ports, alternately. */
        ALL,
        /** The control port only (an Aeron endpoint of the node's media driver). */
        CONTROL,
        /** The heartbeat port only (read by the node's agent). */
        HEARTBEAT
    }

    /**
     * What one flood did.
     *
     * @param kind              what was sent.
     * @param sent              datagrams sent (every port counted).
     * @param elapsedNs         how long sending took.
     * @param maxGapInNs        largest gap between heartbeat progress the flooded node saw from its emitter.
     * @param maxGapOutNs       largest gap between heartbeat progress its observer saw from it.
     * @param progressIn        heartbeat progress the flooded node saw during the flood.
     * @param imagesBefore      publication images in the shared media driver's directory before the flood.
     * @param maxImages         most images seen there during the flood (sampled about every 5 ms).
     * @param maxImageBytes     most bytes of image log buffers there during the flood (file lengths).
     * @param maxShmGrowthBytes most the file system of the driver's directory ({@code /dev/shm}) grew during the
     *                          flood, in bytes of pages in use (other processes' use included: an upper bound).
     * @param driverCpuNs       CPU time the media driver's process used while the flood was sent, or -1 if unknown.
     * @param targetCpuNs       CPU time the flooded node's process used meanwhile, or -1 if unknown.
     */
    public record Result(Kind kind, long sent, long elapsedNs, long maxGapInNs, long maxGapOutNs, long progressIn,
        int imagesBefore, int maxImages, long maxImageBytes, long maxShmGrowthBytes, long driverCpuNs,
        long targetCpuNs)
    {
        /**
         * @return images the flood made the driver create, at least (an image that came and went between two
         * samples is not counted).
         */
        public int imagesCreated()
        {
            return Math.max(0, maxImages - imagesBefore);
        }

        /**
         * @return datagrams per second actually sent.
         */
        public double rate()
        {
            return elapsedNs == 0 ? 0 : sent * 1e9 / elapsedNs;
        }

        @Override
        public String toString()
        {
            return String.format("%-11s sent=%,d rate=%,.0f/s largest heartbeat gap: into the node %.1f ms, " +
                "out of it %.1f ms; progress seen %d; driver images %d before, at most %d (%.1f MiB of log " +
                "buffers, /dev/shm grew %.1f MiB); driver CPU %.0f ms; node CPU %.0f ms", kind, sent, rate(),
                maxGapInNs / 1e6, maxGapOutNs / 1e6, progressIn, imagesBefore, maxImages,
                maxImageBytes / (1024.0 * 1024.0), maxShmGrowthBytes / (1024.0 * 1024.0), driverCpuNs / 1e6,
                targetCpuNs / 1e6);
        }
    }

    private static final long SAMPLE_PERIOD_NS = TimeUnit.MICROSECONDS.toNanos(200);
    private static final long MAX_SLEEP_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Images are counted every this many gap samples (a directory listing costs more than a view read). */
    private static final int IMAGE_SAMPLE_EVERY = 25;
    /** The longest frame any type may have: what a spoofed datagram cost in MACs before length was checked first. */
    private static final int SPOOFED_LENGTH = FrameDecoder.MAX_FRAME_LENGTH;
    private static final int SPOOFED_FRESH_HEAD = 128;

    private final LocalCluster cluster;
    private final int target;
    private final Ports targets;
    private final Random random;
    private final ByteBuffer datagram = ByteBuffer.allocateDirect(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
    private final UnsafeBuffer view = new UnsafeBuffer(datagram);
    private final DataHeaderFlyweight data = new DataHeaderFlyweight();
    private final SetupFlyweight setup = new SetupFlyweight();
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private int streamId = RingwatchConfiguration.controlStreamId();
    private boolean spoofedBodyFilled;

    /**
     * @param cluster a running UDP cluster.
     * @param target  the rank to flood.
     * @param seed    for every random byte, length and id.
     */
    public HostileTraffic(final LocalCluster cluster, final int target, final long seed)
    {
        this(cluster, target, seed, Ports.ALL);
    }

    /**
     * @param cluster a running UDP cluster.
     * @param target  the rank to flood.
     * @param seed    for every random byte, length and id.
     * @param ports   which of its ports.
     */
    public HostileTraffic(final LocalCluster cluster, final int target, final long seed, final Ports ports)
    {
        this.cluster = cluster;
        this.target = target;
        this.targets = ports;
        this.random = new Random(seed);
        data.wrap(view);
        setup.wrap(view);
    }

    /**
     * The stream id DATA and SETUP frames carry: by default the configured control stream id, which anyone knows and
     * which the nodes no longer use over UDP (a blind attacker's guess); the id the nodes do use models an attacker
     * who has sniffed it.
     *
     * @param streamId the id to put in Aeron frames.
     * @return this.
     */
    public HostileTraffic streamId(final int streamId)
    {
        this.streamId = streamId;
        return this;
    }

    /**
     * Put in Aeron frames the control stream id the nodes use, derived from the cluster's primary key: an attacker
     * who has sniffed it ({@link #streamId(int)}).
     *
     * @return this.
     */
    public HostileTraffic informed()
    {
        return streamId(ControlStreams.streamIds(KeyFile.load(cluster.keyFile().toPath()),
            cluster.options().clusterId())[0]);
    }

    /**
     * Send {@code count} datagrams of {@code kind}, spread over the node's ports, at {@code ratePerSecond}, sampling
     * heartbeat gaps meanwhile.
     *
     * @param kind          what to send.
     * @param count         how many, all ports together.
     * @param ratePerSecond how fast.
     * @return what happened.
     * @throws InterruptedException if interrupted.
     */
    public Result flood(final Kind kind, final long count, final int ratePerSecond) throws InterruptedException
    {
        final ClusterConfig.Member member = ClusterConfig.load(cluster.clusterFile().toPath()).member(target);
        final InetSocketAddress control = new InetSocketAddress(member.host(), member.controlPort());
        final InetSocketAddress heartbeat = new InetSocketAddress(member.host(), member.heartbeatPort());
        final InetSocketAddress[] ports = kind == Kind.SPOOFED_EMITTER ? new InetSocketAddress[] {heartbeat} :
            targets == Ports.ALL ? new InetSocketAddress[] {control, heartbeat} :
            new InetSocketAddress[] {targets == Ports.CONTROL ? control : heartbeat};
        final int n = cluster.options().nodes();
        final ClusterConfig.Member emitter =
            ClusterConfig.load(cluster.clusterFile().toPath()).member(Math.floorMod(target - 1, n));
        final GapProbe into = new GapProbe(target);
        final GapProbe outOf = new GapProbe((target + 1) % n);
        final ImageProbe images = new ImageProbe(new File(cluster.aeronDir(), "images"));
        final AtomicBoolean sampling = new AtomicBoolean(true);
        final Thread sampler = new Thread(() ->
        {
            final ViewSnapshot snapshot = new ViewSnapshot();
            for (long i = 0; sampling.get(); i++)
            {
                into.sample(snapshot);
                outOf.sample(snapshot);
                if (i % IMAGE_SAMPLE_EVERY == 0)
                {
                    images.sample();
                }
                LockSupport.parkNanos(SAMPLE_PERIOD_NS);
            }
            images.sample();
        }, "heartbeat-gap-sampler");
        sampler.setDaemon(true);
        sampler.start();

        final long periodNs = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
        final long driverCpuBeforeNs = driverCpuNs();
        final long targetCpuBeforeNs = cpuNs(cluster.process(target).pid());
        long sent = 0;
        final long startNs = System.nanoTime();
        try (DatagramChannel channel = DatagramChannel.open())
        {
            if (kind == Kind.SPOOFED_EMITTER)
            {
                channel.setOption(StandardSocketOptions.SO_REUSEPORT, true);
                channel.bind(new InetSocketAddress(emitter.host(), emitter.heartbeatPort()));
            }
            while (sent < count)
            {
                // catch up to the schedule in one go, then sleep: a burst of about a millisecond at a time
                final long dueNs = startNs + sent * periodNs;
                final long nowNs = System.nanoTime();
                if (dueNs - nowNs > 0)
                {
                    LockSupport.parkNanos(Math.min(dueNs - nowNs, MAX_SLEEP_NS));
                    continue;
                }
                final int length = fill(kind, streamId);
                datagram.clear().limit(length);
                channel.send(datagram, ports[(int)(sent % ports.length)]);
                sent++;
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("flood of " + kind + " to rank " + target, ex);
        }
        final long elapsedNs = System.nanoTime() - startNs;
        // one more heartbeat period, so a gap that began during the flood is measured to its end
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(2 * cluster.options().heartbeatPeriodNs()) + 1);
        final long driverCpuAfterNs = driverCpuNs();
        final long targetCpuAfterNs = cpuNs(cluster.process(target).pid());
        sampling.set(false);
        sampler.join();
        return new Result(kind, sent, elapsedNs, into.maxGapNs, outOf.maxGapNs, into.progress - into.firstProgress,
            images.first, images.max, images.maxBytes, images.maxUsed - images.firstUsed,
            driverCpuBeforeNs < 0 || driverCpuAfterNs < 0 ? -1 : driverCpuAfterNs - driverCpuBeforeNs,
            targetCpuBeforeNs < 0 || targetCpuAfterNs < 0 ? -1 : targetCpuAfterNs - targetCpuBeforeNs);
    }

    private long driverCpuNs()
    {
        return cpuNs(cluster.driverPid());
    }

    private static long cpuNs(final long pid)
    {
        return ProcessHandle.of(pid)
            .flatMap((handle) -> handle.info().totalCpuDuration())
            .map(Duration::toNanos)
            .orElse(-1L);
    }

    private int fill(final Kind kind, final int streamId)
    {
        switch (kind)
        {
            case AERON_DATA:
            {
                final int payload = random.nextInt(1025);
                final int length = DataHeaderFlyweight.HEADER_LENGTH + payload;
                data.frameLength(length);
                data.version(HeaderFlyweight.CURRENT_VERSION);
                data.flags(DataHeaderFlyweight.BEGIN_AND_END_FLAGS);
                data.headerType(HeaderFlyweight.HDR_TYPE_DATA);
                data.termOffset(random.nextInt(1 << 16) & ~31);
                data.sessionId(random.nextInt());
                data.streamId(streamId);
                data.termId(random.nextInt());
                data.reservedValue(random.nextLong());
                randomBytes(DataHeaderFlyweight.HEADER_LENGTH, payload);
                return length;
            }

            case SPOOFED_EMITTER:
            {
                if (!spoofedBodyFilled)
                {
                    randomBytes(0, SPOOFED_LENGTH);
                    spoofedBodyFilled = true;
                }
                // the heartbeat socket reads at most 73 B of a datagram: fresh bytes at the head and in the MAC
                // trailer make each one differ, and the sender no longer spends 12 KB of random numbers on each
                // (refilling all of it held the sender to 12-17 k datagrams/s here)
                randomBytes(0, SPOOFED_FRESH_HEAD);
                randomBytes(SPOOFED_LENGTH - FrameHeaderFlyweight.MAC_LENGTH, FrameHeaderFlyweight.MAC_LENGTH);
                heartbeat.encode(view, 0, cluster.options().clusterId(), Math.floorMod(target - 1,
                    cluster.options().nodes()), 1, target, 0, 1 + random.nextInt(1 << 20), 0);
                return SPOOFED_LENGTH;
            }

            case AERON_SETUP:
            {
                final int initialTermId = random.nextInt();
                setup.frameLength(SetupFlyweight.HEADER_LENGTH);
                setup.version(HeaderFlyweight.CURRENT_VERSION);
                setup.flags((short)0);
                setup.headerType(HeaderFlyweight.HDR_TYPE_SETUP);
                setup.termOffset(0);
                setup.sessionId(random.nextInt());
                setup.streamId(streamId);
                setup.initialTermId(initialTermId);
                setup.activeTermId(initialTermId);
                setup.termLength(RingwatchConfiguration.TERM_LENGTH_DEFAULT);
                setup.mtuLength(1408);
                setup.ttl(0);
                return SetupFlyweight.HEADER_LENGTH;
            }

            default:
            {
                final int length = 1 + random.nextInt(1400);
                randomBytes(0, length);
                return length;
            }
        }
    }

    private void randomBytes(final int offset, final int length)
    {
        for (int i = 0; i < length; i += 8)
        {
            final long bits = random.nextLong();
            for (int b = 0; b < 8 && i + b < length; b++)
            {
                view.putByte(offset + i + b, (byte)(bits >>> (8 * b)));
            }
        }
    }

    /**
     * Publication images of the media driver: one log buffer file each in its {@code images} directory, made for
     * every new session a SETUP frame announces on a stream the driver has a subscription for.
     */
    private static final class ImageProbe
    {
        private final File directory;
        private int first = -1;
        private int max;
        private long maxBytes;
        private long firstUsed;
        private long maxUsed;

        ImageProbe(final File directory)
        {
            this.directory = directory;
        }

        void sample()
        {
            final File[] files = directory.listFiles();
            final int count = files == null ? 0 : files.length;
            long bytes = 0;
            for (int i = 0; i < count; i++)
            {
                bytes += files[i].length();
            }
            final long used = usedBytes();
            if (first < 0)
            {
                first = count;
                firstUsed = used;
                maxUsed = used;
            }
            max = Math.max(max, count);
            maxBytes = Math.max(maxBytes, bytes);
            maxUsed = Math.max(maxUsed, used);
        }

        private long usedBytes()
        {
            try
            {
                final FileStore store = Files.getFileStore(directory.getParentFile().toPath());
                return store.getTotalSpace() - store.getUnallocatedSpace();
            }
            catch (final IOException ex)
            {
                return 0;
            }
        }
    }

    /**
     * Largest interval between two changes of one node's heartbeat progress, timed by the node itself (the view
     * file's {@code lastProgressNs}); sampled every 200 µs, so a sampler descheduled across several changes can only
     * make a gap look longer.
     */
    private final class GapProbe
    {
        private final int rank;
        private long lastProgressNs;
        private long progress = -1;
        private long firstProgress = -1;
        private long maxGapNs;

        GapProbe(final int rank)
        {
            this.rank = rank;
        }

        void sample(final ViewSnapshot snapshot)
        {
            if (cluster.tryView(rank, snapshot) == null)
            {
                return;
            }
            if (snapshot.heartbeatProgress() != progress)
            {
                if (progress >= 0)
                {
                    maxGapNs = Math.max(maxGapNs, snapshot.lastProgressNs() - lastProgressNs);
                }
                else
                {
                    firstProgress = snapshot.heartbeatProgress();
                }
                progress = snapshot.heartbeatProgress();
                lastProgressNs = snapshot.lastProgressNs();
            }
        }
    }
}
