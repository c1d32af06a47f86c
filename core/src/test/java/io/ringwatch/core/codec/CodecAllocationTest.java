package io.ringwatch.core.codec;

import io.ringwatch.core.ThreadAllocation;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Encoding, stamping (sequence and MAC), decoding (MAC verified, replay checked) must not allocate once warm.
 * Measured with the JVM's per-thread allocation counter over many iterations, so a single allocation per frame
 * (16 bytes or more) shows up as hundreds of kilobytes while the tolerance is one kilobyte for the whole run. A few attempts absorb one-off noise such as a deoptimisation.
 */
class CodecAllocationTest
{
    private static final int CLUSTER_ID = 3;
    private static final int CLUSTER_SIZE = 1024;
    private static final int WARMUP_ITERATIONS = 30_000;
    private static final int MEASURED_ITERATIONS = 20_000;
    private static final int ATTEMPTS = 5;
    private static final long TOLERANCE_BYTES = 1024;
    private static final int LOCAL = 0;
    private static final int DIGEST = ConfigDigest.of(CLUSTER_ID, CLUSTER_SIZE, 1_000_000L, 10_000_000L);

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FailureNoticeFlyweight.MAX_LENGTH]);
    private final FrameAuthenticator authenticator = FrameAuthenticator.withKeys(
        java.util.List.of(Frames.OTHER_KEY, Frames.KEY));
    private final FrameStamper stamper = new FrameStamper(CLUSTER_SIZE, FrameAuthenticator.withKey(Frames.KEY));
    private final FrameDecoder decoder = new FrameDecoder(
        CLUSTER_ID, CLUSTER_SIZE, LOCAL, DIGEST, authenticator, new ReplayGuard(CLUSTER_SIZE));
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final NewObserverFlyweight newObserver = new NewObserverFlyweight();
    private final FailureNoticeFlyweight notice = new FailureNoticeFlyweight();
    private final LeaveFlyweight leave = new LeaveFlyweight();
    private final TestNotice smallNotice = new TestNotice(5, 0, 1, 1L, 5);
    private final TestNotice largeNotice = new TestNotice(0, 1, 1, 2L, TestNotice.everyOther(200));

    private long checksum;
    private long[] escaped;

    @Test
    void shouldEncodeAndDecodeEveryFrameTypeWithoutAllocating()
    {
        final ThreadAllocation allocation = ThreadAllocation.counter();
        runWorkload(WARMUP_ITERATIONS);

        final long bestBytes = ThreadAllocation.fewest(
            allocation.rounds(ATTEMPTS, TOLERANCE_BYTES, () -> runWorkload(MEASURED_ITERATIONS)));

        assertTrue(bestBytes <= TOLERANCE_BYTES,
            "allocated " + bestBytes + " bytes over " + MEASURED_ITERATIONS + " iterations of every frame type");
        assertTrue(checksum != 0);
    }

    @Test
    void shouldSeeOneSmallAllocationPerIterationAboveTheTolerance()
    {
        final long bytes = ThreadAllocation.counter().bytesOf(() ->
        {
            for (int i = 0; i < MEASURED_ITERATIONS; i++)
            {
                escaped = new long[] { i };
            }
        });

        assertEquals(MEASURED_ITERATIONS - 1, escaped[0]);
        assertTrue(bytes > TOLERANCE_BYTES,
            "the probe missed " + MEASURED_ITERATIONS + " escaping allocations: " + bytes + " bytes");
    }

    private void runWorkload(final int iterations)
    {
        for (int i = 1; i <= iterations; i++)
        {
            int length = heartbeat.encode(buffer, 0, CLUSTER_ID, i % CLUSTER_SIZE, 1, LOCAL, DIGEST, i, i);
            expectAccepted(decoder.decode(buffer, 0, stamper.stamp(buffer, 0, length)));
            checksum += decoder.heartbeatCounter();

            length = newObserver.encode(buffer, 0, CLUSTER_ID, 1, 1, DIGEST, LOCAL, 7, 0x1000L, 64);
            expectAccepted(decoder.decode(buffer, 0, stamper.stamp(buffer, 0, length)));
            checksum += decoder.rdmaLength();

            length = notice.encode(
                buffer, 0, CLUSTER_ID, 1, 1, LOCAL, DIGEST, (i & 1) == 0 ? smallNotice : largeNotice);
            expectAccepted(decoder.decode(buffer, 0, stamper.stamp(buffer, 0, length)));
            checksum += decoder.notice().deadSet().size();

            // Forwarding re-encodes the decoded notice itself.
            length = notice.encode(buffer, 0, CLUSTER_ID, 2, 1, LOCAL, DIGEST, decoder.notice());
            expectAccepted(decoder.decode(buffer, 0, stamper.stamp(buffer, 0, length)));
            checksum += decoder.notice().sequence();

            length = leave.encode(buffer, 0, CLUSTER_ID, 4, 1, LOCAL, DIGEST);
            expectAccepted(decoder.decode(buffer, 0, stamper.stamp(buffer, 0, length)));
            checksum += decoder.senderRank();

            // rejects: a replay, a forgery, a broken version under a valid MAC
            checksum += decoder.decode(buffer, 0, length).ordinal();
            buffer.putByte(0, (byte)9);
            checksum += decoder.decode(buffer, 0, length).ordinal();
            checksum += decoder.decode(buffer, 0, stamper.stamp(buffer, 0, length)).ordinal();
        }
    }

    private static void expectAccepted(final RejectReason reason)
    {
        if (reason != RejectReason.NONE)
        {
            throw new AssertionError("workload frame rejected: " + reason);
        }
    }
}
