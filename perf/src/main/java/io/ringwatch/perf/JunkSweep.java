package io.ringwatch.perf;

import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.core.codec.ProcessFailureFlyweight;
import io.ringwatch.core.codec.RejectReason;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * What one frame with a wrong MAC costs a node's decoder, by size: the CPU an attacker who can reach the control
 * subscription (or spoof the emitter's heartbeat address) buys per datagram. Two shapes per size: random bytes, and
 * the attacker's best effort, a frame whose header and counts are plausible so it gets as far as the decoder lets it
 * (a heartbeat at its 72 bytes, else a PROCESS_FAILURE as long as the size allows, the longest frame type). Timed in this
 * thread, frames decoded round-robin from a small pool so the caches hold them as a flood's would.
 */
final class JunkSweep
{
    /** Frame sizes swept, up to the longest frame the decoder has ever taken. */
    static final int[] SIZES = {HeartbeatFlyweight.LENGTH, 128, 256, 512, 1024, 2048, 4096, 8192, 12_360};

    private static final int CLUSTER_ID = 7;
    private static final int CONFIG_DIGEST = 0x5eed;
    private static final int POOL = 16;
    private static final long TARGET_NS = 40_000_000L;

    private JunkSweep()
    {
    }

    /**
     * Print one table row per cluster size, key count, shape and frame size.
     *
     * @param out          the table.
     * @param clusterSizes N of each decoder measured.
     * @param seed         for keys and junk.
     */
    static void run(final PrintStream out, final int[] clusterSizes, final long seed)
    {
        final Random random = new Random(seed);
        out.println("| N | keys | shape | frame bytes | decoder verdict | ns per frame |");
        out.println("| ---: | ---: | --- | ---: | --- | ---: |");
        for (final int clusterSize : clusterSizes)
        {
            for (final int keyCount : new int[]{1, FrameAuthenticator.MAX_KEYS})
            {
                final List<byte[]> keys = new ArrayList<>();
                for (int k = 0; k < keyCount; k++)
                {
                    final byte[] key = new byte[FrameAuthenticator.KEY_LENGTH];
                    random.nextBytes(key);
                    keys.add(key);
                }
                final FrameDecoder decoder = new FrameDecoder(
                    CLUSTER_ID, clusterSize, 0, CONFIG_DIGEST, FrameAuthenticator.withKeys(keys), null);
                for (final boolean shaped : new boolean[]{false, true})
                {
                    for (final int size : SIZES)
                    {
                        row(out, decoder, keyCount, shaped, size, random);
                    }
                }
            }
        }
    }

    private static void row(
        final PrintStream out,
        final FrameDecoder decoder,
        final int keyCount,
        final boolean shaped,
        final int size,
        final Random random)
    {
        final UnsafeBuffer[] frames = new UnsafeBuffer[POOL];
        int length = size;
        for (int i = 0; i < POOL; i++)
        {
            frames[i] = new UnsafeBuffer(new byte[size]);
            final byte[] junk = new byte[size];
            random.nextBytes(junk);
            frames[i].putBytes(0, junk);
            if (shaped)
            {
                length = shape(frames[i], size, decoder.clusterSize());
            }
        }
        final RejectReason verdict = decoder.decode(frames[0], 0, length);

        // warm up, then time batches until the target time has passed
        long sink = 0;
        for (int i = 0; i < 50_000; i++)
        {
            sink += decoder.decode(frames[i % POOL], 0, length).ordinal();
        }
        long decoded = 0;
        final long startNs = System.nanoTime();
        long elapsedNs;
        do
        {
            for (int i = 0; i < 1024; i++)
            {
                sink += decoder.decode(frames[i % POOL], 0, length).ordinal();
            }
            decoded += 1024;
            elapsedNs = System.nanoTime() - startNs;
        }
        while (elapsedNs < TARGET_NS);
        if (sink == 42)
        {
            out.print("");
        }
        out.printf(Locale.ROOT, "| %d | %d | %s | %,d | %s | %.0f |%n", decoder.clusterSize(), keyCount,
            shaped ? "plausible header" : "random bytes", length, verdict, (double)elapsedNs / decoded);
    }

    /**
     * Make the frame's header and counts plausible for a decoder of N ranks, as an attacker who read the code would:
     * the right version, cluster id, digest and destination, and the longest frame type with counts filling the size.
     *
     * @return the frame's length, at most {@code size}.
     */
    private static int shape(final UnsafeBuffer frame, final int size, final int clusterSize)
    {
        final ProcessFailureFlyweight flyweight = new ProcessFailureFlyweight().wrap(frame, 0);
        final int type;
        final int length;
        if (size < ProcessFailureFlyweight.MIN_LENGTH)
        {
            type = FrameHeaderFlyweight.HEARTBEAT_TYPE;
            length = HeartbeatFlyweight.LENGTH;
        }
        else
        {
            type = FrameHeaderFlyweight.PROCESS_FAILURE_TYPE;
            final int fixed = ProcessFailureFlyweight.lengthOf(0, 0);
            final int processes = Math.min(ProcessFailureFlyweight.MAX_PROCESSES, (size - fixed) / Integer.BYTES);
            final int ranges = Math.max(0, (size - ProcessFailureFlyweight.lengthOf(0, processes)) /
                (ProcessFailureFlyweight.lengthOf(1, 0) - fixed));
            flyweight.rangeCount(ranges).processCount(processes);
            length = ProcessFailureFlyweight.lengthOf(ranges, processes);
        }
        flyweight.header(type, CLUSTER_ID, 1 % clusterSize, 1, 0, CONFIG_DIGEST).frameSequence(1);
        return length;
    }
}
