package io.ringwatch.core.codec;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplayGuardTest
{
    private final ReplayGuard guard = new ReplayGuard(8);

    @Test
    void shouldAdmitTheFirstIncarnationHeardFromARank()
    {
        assertFalse(guard.hasAdmitted(3));

        assertEquals(RejectReason.NONE, guard.accept(3, 77, 5));

        assertTrue(guard.hasAdmitted(3));
        assertEquals(77, guard.admittedIncarnation(3));
        assertEquals(5, guard.highestSequence(3));
        assertFalse(guard.hasAdmitted(2));
    }

    @Test
    void shouldRejectADuplicate()
    {
        assertEquals(RejectReason.NONE, guard.accept(1, 1, 10));

        assertEquals(RejectReason.REPLAYED, guard.accept(1, 1, 10));
    }

    @Test
    void shouldAcceptFramesReorderedInsideTheWindowOnceEach()
    {
        assertEquals(RejectReason.NONE, guard.accept(1, 1, 100));
        assertEquals(RejectReason.NONE, guard.accept(1, 1, 99));
        assertEquals(RejectReason.NONE, guard.accept(1, 1, 100 - ReplayGuard.WINDOW + 1));
        assertEquals(RejectReason.REPLAYED, guard.accept(1, 1, 99));
        assertEquals(RejectReason.REPLAYED, guard.accept(1, 1, 100 - ReplayGuard.WINDOW + 1));

        assertEquals(RejectReason.NONE, guard.accept(1, 1, 101));
        assertEquals(RejectReason.REPLAYED, guard.accept(1, 1, 99));
        assertEquals(RejectReason.STALE_SEQUENCE, guard.accept(1, 1, 100 - ReplayGuard.WINDOW + 1));
        assertEquals(101, guard.highestSequence(1));
    }

    @Test
    void shouldRejectAFrameOlderThanTheWindowEvenIfNeverSeen()
    {
        assertEquals(RejectReason.NONE, guard.accept(1, 1, 100));

        assertEquals(RejectReason.STALE_SEQUENCE, guard.accept(1, 1, 100 - ReplayGuard.WINDOW));
        assertEquals(RejectReason.STALE_SEQUENCE, guard.accept(1, 1, 1));
    }

    @Test
    void shouldForgetTheWindowAfterALongJumpButStillRejectWhatFellOutOfIt()
    {
        assertEquals(RejectReason.NONE, guard.accept(1, 1, 10));
        assertEquals(RejectReason.NONE, guard.accept(1, 1, 10 + 10 * ReplayGuard.WINDOW));

        assertEquals(RejectReason.STALE_SEQUENCE, guard.accept(1, 1, 10));
        assertEquals(RejectReason.NONE, guard.accept(1, 1, 10 + 10 * ReplayGuard.WINDOW - 1));
    }

    @Test
    void shouldRejectOlderAndUnadmittedNewerIncarnations()
    {
        assertEquals(RejectReason.NONE, guard.accept(2, 50, 1));

        assertEquals(RejectReason.STALE_INCARNATION, guard.accept(2, 49, 1000));
        assertEquals(RejectReason.UNKNOWN_INCARNATION, guard.accept(2, 51, 1000));
        assertEquals(50, guard.admittedIncarnation(2));
        assertEquals(1, guard.highestSequence(2));
    }

    @Test
    void shouldAdmitOnlyANewerIncarnationThroughTheHookAndStartItsWindowAfresh()
    {
        assertEquals(RejectReason.NONE, guard.accept(2, 50, 900));

        assertFalse(guard.admitIncarnation(2, 50));
        assertFalse(guard.admitIncarnation(2, 49));
        assertTrue(guard.admitIncarnation(2, 51));

        assertEquals(RejectReason.NONE, guard.accept(2, 51, 1));
        assertEquals(RejectReason.STALE_INCARNATION, guard.accept(2, 50, 901));
        assertEquals(RejectReason.REPLAYED, guard.accept(2, 51, 1));
    }

    @Test
    void shouldAdmitThroughTheHookBeforeAnyFrame()
    {
        assertTrue(guard.admitIncarnation(4, 7));

        assertEquals(RejectReason.UNKNOWN_INCARNATION, guard.accept(4, 8, 1));
        assertEquals(RejectReason.NONE, guard.accept(4, 7, 1));
    }

    @Test
    void shouldKeepSendersApart()
    {
        assertEquals(RejectReason.NONE, guard.accept(0, 1, 5));

        assertEquals(RejectReason.NONE, guard.accept(1, 1, 5));
        assertEquals(RejectReason.NONE, guard.accept(7, 9, 1));
        assertEquals(RejectReason.REPLAYED, guard.accept(0, 1, 5));
    }

    @Test
    void shouldNotRememberWhatCheckJudged()
    {
        assertEquals(RejectReason.NONE, guard.check(1, 1, 5));
        assertEquals(RejectReason.NONE, guard.check(1, 1, 5));
        assertFalse(guard.hasAdmitted(1));
    }

    @Test
    void shouldRejectSendersOutsideTheClusterAndSequencesBelowOne()
    {
        assertEquals(RejectReason.SENDER_OUT_OF_RANGE, guard.accept(8, 1, 1));
        assertEquals(RejectReason.SENDER_OUT_OF_RANGE, guard.accept(-1, 1, 1));
        assertEquals(RejectReason.BAD_FRAME_SEQUENCE, guard.accept(1, 1, 0));
        assertEquals(RejectReason.BAD_FRAME_SEQUENCE, guard.accept(1, 1, Long.MIN_VALUE));
        assertFalse(guard.admitIncarnation(8, 1));
        assertThrows(IllegalArgumentException.class, () -> new ReplayGuard(0));
    }

    @Test
    void shouldHandleIncarnationsAcrossTheSignBitAsSignedNumbers()
    {
        assertEquals(RejectReason.NONE, guard.accept(5, -3, 1));

        assertEquals(RejectReason.UNKNOWN_INCARNATION, guard.accept(5, 4, 2));
        assertEquals(RejectReason.STALE_INCARNATION, guard.accept(5, Integer.MIN_VALUE, 2));
        assertEquals(-3, guard.admittedIncarnation(5));
    }

    /**
     * Against a model that remembers every accepted sequence: random arrivals with duplicates, reordering and long
     * jumps; every answer must be what the window rule says.
     */
    @Test
    void shouldMatchAModelThatRemembersEverySequence()
    {
        final long seed = Long.getLong("ringwatch.replay.seed", System.nanoTime());
        final Random random = new Random(seed);
        final ReplayGuard guard = new ReplayGuard(4);
        final Map<Integer, Set<Long>> accepted = new HashMap<>();
        final long[] highest = new long[4];
        for (int i = 0; i < 200_000; i++)
        {
            final int sender = random.nextInt(4);
            final long sequence;
            final int roll = random.nextInt(10);
            if (roll < 5 || highest[sender] == 0)
            {
                sequence = highest[sender] + 1 + (roll == 0 ? random.nextInt(3 * ReplayGuard.WINDOW) : 0);
            }
            else
            {
                sequence = Math.max(1, highest[sender] - random.nextInt(2 * ReplayGuard.WINDOW));
            }

            final Set<Long> seen = accepted.computeIfAbsent(sender, (s) -> new HashSet<>());
            final RejectReason expected;
            if (sequence > highest[sender])
            {
                expected = RejectReason.NONE;
            }
            else if (highest[sender] - sequence >= ReplayGuard.WINDOW)
            {
                expected = RejectReason.STALE_SEQUENCE;
            }
            else
            {
                expected = seen.contains(sequence) ? RejectReason.REPLAYED : RejectReason.NONE;
            }

            final RejectReason actual = guard.accept(sender, 1, sequence);
            final int step = i;
            assertEquals(expected, actual, () -> "seed=" + seed + " (rerun with -Dringwatch.replay.seed=" + seed +
                ") step " + step + " sender " + sender + " sequence " + sequence + " highest " + highest[sender]);
            if (actual == RejectReason.NONE)
            {
                seen.add(sequence);
                highest[sender] = Math.max(highest[sender], sequence);
            }
        }
    }

    @Test
    void shouldLetANewerLifeReplaceOneAdmittedOnFirstUseWhileJoining()
    {
        // a restarted node first reads a frame its dead neighbour's old life (boot incarnation: a pid) left queued
        assertEquals(RejectReason.NONE, guard.accept(6, 18_515, 40));
        // without the joiner's rule the neighbour's new life, itself rejoined, is locked out: its VIEW and NEW_OBSERVER
        assertEquals(RejectReason.UNKNOWN_INCARNATION, guard.check(6, 1_795_458_324, 1));

        guard.admitNewestUntilSettled();
        assertEquals(RejectReason.NONE, guard.accept(6, 1_795_458_324, 1));
        assertEquals(1_795_458_324, guard.admittedIncarnation(6));
        assertEquals(1, guard.highestSequence(6));
        assertEquals(RejectReason.STALE_INCARNATION, guard.accept(6, 18_515, 41));
        assertEquals(RejectReason.REPLAYED, guard.accept(6, 1_795_458_324, 1));

        guard.settle();
        assertEquals(RejectReason.UNKNOWN_INCARNATION, guard.accept(6, 1_795_458_325, 1));
        assertEquals(RejectReason.NONE, guard.accept(6, 1_795_458_324, 2));
    }
}
