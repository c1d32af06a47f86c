package io.ringwatch.core.codec;

import io.ringwatch.core.spi.RankSet;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;

import static io.ringwatch.core.codec.FailureNoticeFlyweight.MAX_RANGES;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.FAILURE_NOTICE_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.HEADER_LENGTH;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.HEARTBEAT_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.LEAVE_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.NEW_OBSERVER_TYPE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Feeds the decoder valid, bit-flipped, truncated, extended, field-garbled, random and out-of-bounds frames.
 * <p>
 * Asserts that no exception escapes, that frames known to be broken are rejected with a reason, that valid frames
 * are accepted, and that every accepted frame, whatever produced it, re-encodes from the decoded values to the
 * very same bytes: the decoder accepts only what the encoder could have written.
 * <p>
 * Reproduce a failure with {@code -Dringwatch.codec.fuzz.seed=<seed>} (printed in every failure message);
 * {@code -Dringwatch.codec.fuzz.iterations=<n>} runs longer.
 */
class FrameDecoderFuzzTest
{
    static final String SEED_PROP_NAME = "ringwatch.codec.fuzz.seed";
    static final String ITERATIONS_PROP_NAME = "ringwatch.codec.fuzz.iterations";
    static final int ITERATIONS_DEFAULT = 200_000;

    private static final int CLUSTER_ID = 0x5EED;
    private static final int[] CLUSTER_SIZES = { 1, 2, 37, 5000 };
    private static final int MAX_OFFSET = 64;
    private static final int SLACK = 64;

    private enum Mutation
    {
        NONE, BIT_FLIP, TRUNCATE, EXTEND, GARBLE_FIELD, RANDOM_BODY, RANDOM_BYTES, OUT_OF_BOUNDS
    }

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MAX_OFFSET + FailureNoticeFlyweight.MAX_LENGTH + SLACK]);
    private final UnsafeBuffer reencoded = new UnsafeBuffer(new byte[FailureNoticeFlyweight.MAX_LENGTH]);
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final NewObserverFlyweight newObserver = new NewObserverFlyweight();
    private final FailureNoticeFlyweight notice = new FailureNoticeFlyweight();
    private final LeaveFlyweight leave = new LeaveFlyweight();
    private final FrameDecoder[] decoders = new FrameDecoder[CLUSTER_SIZES.length];
    private final boolean[] boundaryTaken = new boolean[5001];

    private Random random;
    private long seed;
    private int iteration;
    private Mutation mutation;

    @Test
    void shouldNeverThrowAndAcceptOnlyFramesThatReencodeIdentically()
    {
        seed = Long.getLong(SEED_PROP_NAME, System.nanoTime());
        final int iterations = Integer.getInteger(ITERATIONS_PROP_NAME, ITERATIONS_DEFAULT);
        random = new Random(seed);
        for (int i = 0; i < CLUSTER_SIZES.length; i++)
        {
            decoders[i] = new FrameDecoder(CLUSTER_ID, CLUSTER_SIZES[i]);
        }
        final byte[] garbage = new byte[buffer.capacity()];
        random.nextBytes(garbage);
        buffer.putBytes(0, garbage);

        final Map<RejectReason, long[]> reasons = new EnumMap<>(RejectReason.class);
        final Map<Mutation, long[]> accepted = new EnumMap<>(Mutation.class);
        final Map<Mutation, long[]> fed = new EnumMap<>(Mutation.class);

        for (iteration = 0; iteration < iterations; iteration++)
        {
            final int sizeIndex = random.nextInt(CLUSTER_SIZES.length);
            final int clusterSize = CLUSTER_SIZES[sizeIndex];
            final FrameDecoder decoder = decoders[sizeIndex];
            final int offset = random.nextInt(MAX_OFFSET);

            int length = writeValidFrame(offset, clusterSize);
            mutation = pickMutation();
            boolean mustReject = true;
            switch (mutation)
            {
                case NONE:
                    mustReject = false;
                    break;

                case BIT_FLIP:
                    mustReject = flipBits(offset, length);
                    break;

                case TRUNCATE:
                    length = random.nextInt(length);
                    break;

                case EXTEND:
                    length += 1 + random.nextInt(SLACK);
                    break;

                case GARBLE_FIELD:
                    mustReject = garbleField(offset, length, clusterSize);
                    break;

                case RANDOM_BODY:
                    length = writeRandomBody(offset, clusterSize);
                    mustReject = false;
                    break;

                case RANDOM_BYTES:
                    length = writeRandomBytes(offset);
                    mustReject = false;
                    break;

                case OUT_OF_BOUNDS:
                    break;
            }

            final int decodeOffset = mutation == Mutation.OUT_OF_BOUNDS ? badOffset(length) : offset;
            final int decodeLength = mutation == Mutation.OUT_OF_BOUNDS ? badLength(decodeOffset, length) : length;
            final RejectReason reason = decodeSafely(decoder, decodeOffset, decodeLength);

            reasons.computeIfAbsent(reason, (r) -> new long[1])[0]++;
            fed.computeIfAbsent(mutation, (m) -> new long[1])[0]++;
            if (mutation == Mutation.NONE)
            {
                assertEquals(RejectReason.NONE, reason, () -> context("valid frame rejected", offset, decodeLength));
            }
            else if (mustReject)
            {
                assertNotEquals(RejectReason.NONE, reason, () -> context("broken frame accepted", offset, decodeLength));
            }

            if (reason == RejectReason.NONE)
            {
                accepted.computeIfAbsent(mutation, (m) -> new long[1])[0]++;
                assertReencodesIdentically(decoder, decodeOffset, decodeLength);
            }
        }

        final StringBuilder report = new StringBuilder();
        report.append("FrameDecoderFuzzTest seed=").append(seed).append(" iterations=").append(iterations).append('\n');
        report.append("  reasons:\n");
        reasons.forEach((r, c) -> report.append(String.format("    %-26s %8d%n", r, c[0])));
        report.append("  accepted / fed per mutation:\n");
        fed.forEach((m, c) -> report.append(String.format(
            "    %-26s %8d / %8d%n", m, accepted.getOrDefault(m, new long[1])[0], c[0])));
        System.out.print(report);

        // The fuzz must stay meaningful: mutants that survive as other valid frames prove acceptance is exercised,
        // and at the default length every reason is reached (the rarest occurs over a hundred times).
        final long acceptedMutants = accepted.entrySet().stream()
            .filter((e) -> e.getKey() != Mutation.NONE)
            .mapToLong((e) -> e.getValue()[0])
            .sum();
        assertTrue(acceptedMutants > 0, () -> "no mutated frame was ever accepted, seed=" + seed + "\n" + report);
        if (iterations >= ITERATIONS_DEFAULT)
        {
            assertEquals(RejectReason.values().length, reasons.size(),
                () -> "some reasons were never produced, seed=" + seed + "\n" + report);
        }
    }

    private Mutation pickMutation()
    {
        final int roll = random.nextInt(100);
        if (roll < 15)
        {
            return Mutation.NONE;
        }
        if (roll < 40)
        {
            return Mutation.BIT_FLIP;
        }
        if (roll < 50)
        {
            return Mutation.TRUNCATE;
        }
        if (roll < 55)
        {
            return Mutation.EXTEND;
        }
        if (roll < 75)
        {
            return Mutation.GARBLE_FIELD;
        }
        if (roll < 87)
        {
            return Mutation.RANDOM_BODY;
        }
        if (roll < 95)
        {
            return Mutation.RANDOM_BYTES;
        }
        return Mutation.OUT_OF_BOUNDS;
    }

    private RejectReason decodeSafely(final FrameDecoder decoder, final int offset, final int length)
    {
        try
        {
            final RejectReason reason = decoder.decode(buffer, offset, length);
            assertNotNull(reason, () -> context("null reason", offset, length));
            return reason;
        }
        catch (final RuntimeException | Error ex)
        {
            if (ex instanceof AssertionError)
            {
                throw ex;
            }
            return fail(context("decode threw " + ex, offset, length), ex);
        }
    }

    private int writeValidFrame(final int offset, final int clusterSize)
    {
        final int sender = random.nextInt(clusterSize);
        final int incarnation = random.nextInt();
        final int type = clusterSize < 2 ? 1 + random.nextInt(2) : 1 + random.nextInt(4);
        switch (type)
        {
            case HEARTBEAT_TYPE:
                return heartbeat.encode(buffer, offset, CLUSTER_ID, sender, incarnation, positiveLong(), random.nextLong());

            case NEW_OBSERVER_TYPE:
                if (random.nextBoolean())
                {
                    return newObserver.encode(
                        buffer, offset, CLUSTER_ID, sender, incarnation, random.nextInt(clusterSize));
                }
                return newObserver.encode(
                    buffer,
                    offset,
                    CLUSTER_ID,
                    sender,
                    incarnation,
                    random.nextInt(clusterSize),
                    random.nextInt(),
                    random.nextLong(),
                    1 + random.nextInt(Integer.MAX_VALUE));

            case FAILURE_NOTICE_TYPE:
            {
                final int length = notice.encode(buffer, offset, CLUSTER_ID, sender, incarnation, randomNotice(clusterSize));
                assertTrue(length > 0, () -> context("generator made an unencodable notice: " + length, offset, 0));
                return length;
            }

            default:
                return leave.encode(buffer, offset, CLUSTER_ID, sender, incarnation);
        }
    }

    /**
     * A random dead set as runs between 2k distinct sorted boundaries in [0, N]: distinct boundaries guarantee
     * non-empty runs separated by non-empty gaps, so the encoder's compression is exercised as well.
     */
    private TestNotice randomNotice(final int clusterSize)
    {
        final int maxRuns = Math.min(MAX_RANGES, clusterSize / 2);
        final int runs = 1 + random.nextInt(random.nextInt(10) == 0 ? maxRuns : Math.min(8, maxRuns));
        final int[] boundaries = new int[2 * runs];
        for (int i = 0; i < boundaries.length; i++)
        {
            int b;
            do
            {
                b = random.nextInt(clusterSize + 1);
            }
            while (boundaryTaken[b]);
            boundaryTaken[b] = true;
            boundaries[i] = b;
        }
        for (final int b : boundaries)
        {
            boundaryTaken[b] = false;
        }
        Arrays.sort(boundaries);
        if (runs == 1 && boundaries[0] == 0 && boundaries[1] == clusterSize)
        {
            // Leave room for a live source.
            if (random.nextBoolean())
            {
                boundaries[0] = 1;
            }
            else
            {
                boundaries[1] = clusterSize - 1;
            }
        }

        int size = 0;
        for (int i = 0; i < boundaries.length; i += 2)
        {
            size += boundaries[i + 1] - boundaries[i];
        }
        final int[] ranks = new int[size];
        int next = 0;
        for (int i = 0; i < boundaries.length; i += 2)
        {
            for (int rank = boundaries[i]; rank < boundaries[i + 1]; rank++)
            {
                ranks[next++] = rank;
            }
        }

        final int deadRank = ranks[random.nextInt(size)];
        int sourceRank = random.nextInt(clusterSize);
        while (Arrays.binarySearch(ranks, sourceRank) >= 0)
        {
            sourceRank = (sourceRank + 1) % clusterSize;
        }
        return new TestNotice(deadRank, sourceRank, random.nextInt(), positiveLong(), ranks);
    }

    /**
     * @return true if the frame is now certainly invalid: a changed version, type, flags or cluster id byte.
     */
    private boolean flipBits(final int offset, final int length)
    {
        final int flips = 1 + random.nextInt(4);
        final int[] bits = new int[flips];
        boolean headerIdentityChanged = false;
        for (int i = 0; i < flips; i++)
        {
            int bit;
            do
            {
                bit = random.nextInt(length * 8);
            }
            while (contains(bits, i, bit));
            bits[i] = bit;
            final int index = offset + (bit >>> 3);
            buffer.putByte(index, (byte)(buffer.getByte(index) ^ (1 << (bit & 7))));
            headerIdentityChanged |= (bit >>> 3) < 8;
        }
        return headerIdentityChanged;
    }

    /**
     * Overwrite one aligned 32-bit word with an edge value.
     *
     * @return true if the word was in the version/type/flags/cluster part and its value changed.
     */
    private boolean garbleField(final int offset, final int length, final int clusterSize)
    {
        final int word = random.nextInt(length / 4);
        final int index = offset + word * 4;
        final int before = buffer.getInt(index);
        buffer.putInt(index, edgeInt(clusterSize), ByteOrder.LITTLE_ENDIAN);
        return word < 2 && before != buffer.getInt(index);
    }

    /**
     * A plausible header (right version, cluster, a known type, sender in range) followed by an edge-valued body
     * of exactly the type's length, so body validation sees arbitrary values rather than the header rejecting.
     */
    private int writeRandomBody(final int offset, final int clusterSize)
    {
        final int type = 1 + random.nextInt(4);
        final int length;
        if (type == FAILURE_NOTICE_TYPE)
        {
            final int rangeCount = 1 + random.nextInt(random.nextBoolean() ? 4 : MAX_RANGES);
            length = FailureNoticeFlyweight.lengthOf(rangeCount);
            notice.wrap(buffer, offset)
                .deadRank(edgeInt(clusterSize))
                .sourceRank(edgeInt(clusterSize))
                .sourceIncarnation(random.nextInt())
                .rangeCount(rangeCount)
                .sequence(random.nextInt(4) == 0 ? edgeInt(clusterSize) : positiveLong());
            int first = random.nextInt(Math.max(1, clusterSize / 4));
            for (int i = 0; i < rangeCount; i++)
            {
                // Mostly well-formed runs walking up the ranks, occasionally an edge value.
                final int runLength = random.nextInt(8) == 0 ? edgeInt(clusterSize) : 1 + random.nextInt(3);
                final int runFirst = random.nextInt(8) == 0 ? edgeInt(clusterSize) : first;
                notice.range(i, runFirst, runLength);
                first = runFirst + runLength + random.nextInt(3);
            }
        }
        else
        {
            length = type == HEARTBEAT_TYPE ? HeartbeatFlyweight.LENGTH :
                type == NEW_OBSERVER_TYPE ? NewObserverFlyweight.LENGTH : LeaveFlyweight.LENGTH;
            for (int i = HEADER_LENGTH; i < length; i += 4)
            {
                buffer.putInt(offset + i, random.nextBoolean() ? 0 : edgeInt(clusterSize), ByteOrder.LITTLE_ENDIAN);
            }
        }
        notice.wrap(buffer, offset).header(type, CLUSTER_ID, random.nextInt(clusterSize), random.nextInt());
        return length;
    }

    private int writeRandomBytes(final int offset)
    {
        final int length = random.nextInt(8) == 0 ?
            random.nextInt(FailureNoticeFlyweight.MAX_LENGTH + 1) : random.nextInt(3 * HEADER_LENGTH);
        for (int i = 0; i < length; i++)
        {
            buffer.putByte(offset + i, (byte)random.nextInt());
        }
        if (length >= 2 && random.nextBoolean())
        {
            buffer.putByte(offset, (byte)FrameHeaderFlyweight.VERSION);
            buffer.putByte(offset + 1, (byte)(1 + random.nextInt(4)));
        }
        return length;
    }

    private int badOffset(final int length)
    {
        switch (random.nextInt(4))
        {
            case 0:
                return -1 - random.nextInt(Integer.MAX_VALUE);
            case 1:
                return buffer.capacity() - length + 1 + random.nextInt(SLACK);
            case 2:
                return Integer.MAX_VALUE - random.nextInt(SLACK);
            default:
                return random.nextInt(buffer.capacity() + 1);
        }
    }

    private int badLength(final int offset, final int length)
    {
        switch (random.nextInt(3))
        {
            case 0:
                return -1 - random.nextInt(Integer.MAX_VALUE);
            case 1:
                return Integer.MAX_VALUE - random.nextInt(SLACK);
            default:
                return offset >= 0 && offset <= buffer.capacity() ? buffer.capacity() - offset + 1 + random.nextInt(SLACK) :
                    length;
        }
    }

    private void assertReencodesIdentically(final FrameDecoder decoder, final int offset, final int length)
    {
        final int clusterId = decoder.clusterId();
        final int sender = decoder.senderRank();
        final int incarnation = decoder.senderIncarnation();
        final int reencodedLength;
        switch (decoder.type())
        {
            case HEARTBEAT_TYPE:
                reencodedLength = heartbeat.encode(reencoded, 0, clusterId, sender, incarnation,
                    decoder.heartbeatCounter(), decoder.heartbeatTimestampNs());
                break;

            case NEW_OBSERVER_TYPE:
                reencodedLength = newObserver.encode(reencoded, 0, clusterId, sender, incarnation,
                    decoder.newObserverEmitterRank(), decoder.rdmaRkey(), decoder.rdmaAddress(), decoder.rdmaLength());
                break;

            case FAILURE_NOTICE_TYPE:
            {
                final RankSet set = decoder.notice().deadSet();
                assertTrue(set.rankAt(0) >= 0 && set.rankAt(set.size() - 1) < decoder.clusterSize(),
                    () -> context("accepted set outside the cluster", offset, length));
                reencodedLength = notice.encode(reencoded, 0, clusterId, sender, incarnation, decoder.notice());
                break;
            }

            case LEAVE_TYPE:
                reencodedLength = leave.encode(reencoded, 0, clusterId, sender, incarnation);
                break;

            default:
                reencodedLength = -100;
        }

        assertEquals(length, reencodedLength, () -> context("accepted frame re-encodes to another length", offset, length));
        assertArrayEquals(
            Frames.bytes(buffer, offset, length),
            Frames.bytes(reencoded, 0, length),
            () -> context("accepted frame re-encodes to other bytes", offset, length));
    }

    private long positiveLong()
    {
        return random.nextBoolean() ? 1 + random.nextInt(1000) : 1 + (random.nextLong() & (Long.MAX_VALUE - 1));
    }

    private int edgeInt(final int clusterSize)
    {
        switch (random.nextInt(12))
        {
            case 0: return 0;
            case 1: return 1;
            case 2: return -1;
            case 3: return clusterSize - 1;
            case 4: return clusterSize;
            case 5: return clusterSize + 1;
            case 6: return Integer.MIN_VALUE;
            case 7: return Integer.MAX_VALUE;
            case 8: return MAX_RANGES;
            case 9: return MAX_RANGES + 1;
            case 10: return random.nextInt(clusterSize);
            default: return random.nextInt();
        }
    }

    private static boolean contains(final int[] values, final int count, final int value)
    {
        for (int i = 0; i < count; i++)
        {
            if (values[i] == value)
            {
                return true;
            }
        }
        return false;
    }

    private String context(final String what, final int offset, final int length)
    {
        final boolean inBounds = offset >= 0 && length >= 0 && offset <= buffer.capacity() - length;
        return what + " [seed=" + seed + " (rerun with -D" + SEED_PROP_NAME + "=" + seed + "), iteration=" +
            iteration + ", mutation=" + mutation + ", offset=" + offset + ", length=" + length + "]" +
            (inBounds ? "\n" + Frames.hex(buffer, offset, Math.min(length, 128)) : "");
    }
}
