package io.ringwatch.perf.nemesis;

import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class FaultDeckTest
{
    private static final long SEED = 11;

    @Test
    void shouldDealEveryKindOncePerRoundEvenWhenTheNetworkIsOftenBusy()
    {
        final List<FaultKind> kinds = List.of(FaultKind.values());
        final FaultDeck deck = new FaultDeck(kinds, new Random(SEED));
        final Random busy = new Random(SEED + 1);
        final Map<FaultKind, Integer> dealt = new EnumMap<>(FaultKind.class);
        int round = 0;
        int dealtInRound = 0;
        while (round < 100)
        {
            final FaultKind kind = deck.deal(busy.nextInt(4) != 0);
            if (kind == null)
            {
                continue;
            }
            dealt.merge(kind, 1, Integer::sum);
            if (++dealtInRound == kinds.size())
            {
                round++;
                dealtInRound = 0;
                for (final FaultKind k : kinds)
                {
                    assertEquals(round, dealt.getOrDefault(k, 0), "seed " + SEED + ", " + k + " after round " + round);
                }
            }
        }
    }

    @Test
    void shouldHoldBackOnlyNetworkCardsWhileTheNetworkIsBusy()
    {
        final FaultDeck deck = new FaultDeck(List.of(FaultKind.CUT_LONG, FaultKind.KILL), new Random(SEED));
        assertEquals(FaultKind.KILL, deck.deal(true));
        assertNull(deck.deal(true), "seed " + SEED);
        assertEquals(FaultKind.CUT_LONG, deck.deal(false));
    }

    @Test
    void shouldShuffleRoundsBySeed()
    {
        final List<FaultKind> kinds = List.of(FaultKind.values());
        final StringBuilder a = new StringBuilder();
        final StringBuilder b = new StringBuilder();
        final StringBuilder c = new StringBuilder();
        final FaultDeck da = new FaultDeck(kinds, new Random(SEED));
        final FaultDeck db = new FaultDeck(kinds, new Random(SEED));
        final FaultDeck dc = new FaultDeck(kinds, new Random(SEED + 1));
        for (int i = 0; i < 3 * kinds.size(); i++)
        {
            a.append(da.deal(false)).append(' ');
            b.append(db.deal(false)).append(' ');
            c.append(dc.deal(false)).append(' ');
        }
        assertEquals(a.toString(), b.toString());
        assertNotEquals(a.toString(), c.toString());
    }
}
