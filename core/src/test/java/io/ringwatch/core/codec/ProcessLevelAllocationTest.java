package io.ringwatch.core.codec;

import io.ringwatch.core.ThreadAllocation;
import io.ringwatch.core.broadcast.BinomialGraphSchedule;
import io.ringwatch.core.process.JobLayout;
import io.ringwatch.core.process.ProcessListener;
import io.ringwatch.core.process.ProcessNoticeChannel;
import io.ringwatch.core.process.ProcessNoticeRelay;
import io.ringwatch.core.process.ReusableProcessNotice;
import io.ringwatch.core.process.SilentChannels;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.spi.RankArray;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The process level's hot path, warm: a PROCESS_FAILURE frame encoded, stamped, decoded (MAC, replay) and handed to
 * the relay, which merges it and forwards it along the binomial graph (each forward encoded again). No allocation.
 */
class ProcessLevelAllocationTest
{
    private static final int N = 1024;
    private static final int CLUSTER_ID = 3;
    private static final int DIGEST = 77;
    private static final int ITERATIONS = 20_000;
    private static final long TOLERANCE_BYTES = 1024;

    private final UnsafeBuffer wire = new UnsafeBuffer(new byte[ProcessFailureFlyweight.MAX_LENGTH]);
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[ProcessFailureFlyweight.MAX_LENGTH]);
    private final ProcessFailureFlyweight encoder = new ProcessFailureFlyweight();
    private final ProcessFailureFlyweight forwarder = new ProcessFailureFlyweight();
    private final FrameAuthenticator keyring = FrameAuthenticator.withKey(Frames.KEY);
    private final FrameStamper stamper = new FrameStamper(N, keyring);
    private final FrameDecoder decoder = new FrameDecoder(CLUSTER_ID, N, 0, DIGEST, keyring, new ReplayGuard(N));
    private final ReusableProcessNotice notice = new ReusableProcessNotice();
    private final RankArray excluded = RankArray.of(7, 8, 9, 300);
    private final RankArray dead = RankArray.of(20, 22);
    private long sequence;
    private long checksum;

    @Test
    void shouldRelayProcessNoticesWithoutAllocating()
    {
        final SilentChannels silent = new SilentChannels();
        final DetectorNode node = new DetectorNode(0, 0, ProtocolSettings.of(N, 1_000_000, 10_000_000),
            new BinomialGraphSchedule(), silent, silent, silent, 0);
        final ProcessNoticeChannel channel = (to, n) ->
            checksum += forwarder.encode(out, 0, CLUSTER_ID, 0, 0, to, DIGEST, n);
        final ProcessListener listener = (process, nowNs, cause, reporter) -> checksum += process;
        final ProcessNoticeRelay relay = new ProcessNoticeRelay(
            node, JobLayout.uniform(N, 4), new BinomialGraphSchedule(), 64, channel, listener);

        final ThreadAllocation allocation = ThreadAllocation.counter();

        run(relay, 30_000);
        final long best = ThreadAllocation.fewest(allocation.rounds(5, TOLERANCE_BYTES, () -> run(relay, ITERATIONS)));
        assertTrue(best <= TOLERANCE_BYTES, "allocated " + best + " bytes over " + ITERATIONS + " relayed notices");
        assertTrue(relay.noticesForwarded() > 0 && checksum != 0);
    }

    private void run(final ProcessNoticeRelay relay, final int iterations)
    {
        for (int i = 0; i < iterations; i++)
        {
            notice.set(5, 0, ++sequence, excluded, dead);
            final int length = encoder.encode(wire, 0, CLUSTER_ID, 5, 0, 0, DIGEST, notice);
            stamper.stamp(wire, 0, length);
            if (decoder.decode(wire, 0, length) == RejectReason.NONE)
            {
                relay.onNotice(decoder.processNotice(), 5, i);
            }
        }
    }
}
