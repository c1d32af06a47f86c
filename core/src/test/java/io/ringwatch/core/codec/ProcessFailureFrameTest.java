package io.ringwatch.core.codec;

import io.ringwatch.core.process.ProcessNotice;
import io.ringwatch.core.process.ReusableProcessNotice;
import io.ringwatch.core.spi.RankArray;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ProcessFailureFrameTest
{
    private static final int CLUSTER = 7;
    private static final int N = 16;
    private static final int DIGEST = 0x1234;

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(ProcessFailureFlyweight.MAX_LENGTH));
    private final ProcessFailureFlyweight flyweight = new ProcessFailureFlyweight();
    private final FrameAuthenticator keyring = FrameAuthenticator.withKey(Frames.KEY);

    private int encodeAndSeal(final ProcessNotice notice, final int destination)
    {
        final int length = flyweight.encode(buffer, 0, CLUSTER, 3, 1, destination, DIGEST, notice);
        return Frames.seal(keyring, buffer, 0, length, 1);
    }

    @Test
    void shouldRoundTripAnAuthenticatedProcessNotice()
    {
        final ProcessNotice sent = new ReusableProcessNotice()
            .set(5, 2, 9, RankArray.of(0, 1, 2, 7, 12), RankArray.of(20, 21, 23));
        final int length = encodeAndSeal(sent, 4);
        assertEquals(ProcessFailureFlyweight.lengthOf(3, 3), length);

        final FrameDecoder decoder = new FrameDecoder(CLUSTER, N, 4, DIGEST, keyring, new ReplayGuard(N));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(FrameHeaderFlyweight.PROCESS_FAILURE_TYPE, decoder.type());
        assertEquals(3, decoder.senderRank());
        final ProcessNotice got = decoder.processNotice();
        assertEquals(5, got.sourceRank());
        assertEquals(2, got.sourceIncarnation());
        assertEquals(9, got.sequence());
        assertArrayEquals(new int[]{0, 1, 2, 7, 12}, Frames.toArray(got.excludedNodes()));
        assertArrayEquals(new int[]{20, 21, 23}, Frames.toArray(got.deadProcesses()));

        // replayed to the same node: stale like any other frame
        assertEquals(RejectReason.REPLAYED, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectForgedTamperedAndMalformedProcessNotices()
    {
        final ProcessNotice sent = new ReusableProcessNotice().set(5, 0, 1, RankArray.of(3), RankArray.of(40));
        final int length = encodeAndSeal(sent, 4);

        final FrameDecoder other = new FrameDecoder(
            CLUSTER, N, 4, DIGEST, FrameAuthenticator.withKey(Frames.OTHER_KEY), new ReplayGuard(N));
        assertEquals(RejectReason.BAD_MAC, other.decode(buffer, 0, length));

        final FrameDecoder decoder = new FrameDecoder(CLUSTER, N, 4, DIGEST, keyring, new ReplayGuard(N));
        flyweight.wrap(buffer, 0).process(0, 41);
        assertEquals(RejectReason.BAD_MAC, decoder.decode(buffer, 0, length), "tampered after signing");

        // well signed but malformed: the decoder checks the body once the MAC holds
        final ProcessNotice unsorted = new ReusableProcessNotice().set(5, 0, 1, RankArray.of(3), RankArray.of(40));
        int bad = flyweight.encode(buffer, 0, CLUSTER, 3, 1, 4, DIGEST, unsorted);
        flyweight.processCount(1).process(0, -1);
        Frames.seal(keyring, buffer, 0, bad, 2);
        assertEquals(RejectReason.RANK_OUT_OF_RANGE, decoder.decode(buffer, 0, bad));

        bad = flyweight.encode(buffer, 0, CLUSTER, 3, 1, 4, DIGEST, sent);
        flyweight.range(0, 5, 1);
        Frames.seal(keyring, buffer, 0, bad, 3);
        assertEquals(RejectReason.SOURCE_IN_SET, decoder.decode(buffer, 0, bad));

        bad = flyweight.encode(buffer, 0, CLUSTER, 3, 1, 4, DIGEST, sent);
        Frames.seal(keyring, buffer, 0, bad - 4, 4);
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, bad - 4), "a signed frame cut short");
    }

    @Test
    void shouldRefuseToEncodeANoticeReceiversWouldReject()
    {
        assertEquals(ProcessFailureFlyweight.INVALID_NOTICE, flyweight.encode(buffer, 0, CLUSTER, 3, 1, 4, DIGEST,
            new ReusableProcessNotice().set(5, 0, 1, RankArray.of(5), RankArray.of(40))));
        assertEquals(ProcessFailureFlyweight.INVALID_NOTICE, flyweight.encode(buffer, 0, CLUSTER, 3, 1, 4, DIGEST,
            new ReusableProcessNotice().set(5, 0, 1, RankArray.of(1), new RankArray(1))));
        assertEquals(ProcessFailureFlyweight.INVALID_NOTICE, flyweight.encode(buffer, 0, CLUSTER, 3, 1, 4, DIGEST,
            new ReusableProcessNotice().set(5, 0, 0, RankArray.of(1), RankArray.of(40))));
    }
}
