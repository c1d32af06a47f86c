package io.ringwatch.perf.nemesis;

import java.util.List;
import java.util.Random;

/**
 * The order faults are drawn in: each kind once per round, the round shuffled by the nemesis's seed, so that every
 * kind is injected as often as the others however long the run. A network fault cannot start while another one holds
 * the switch; the deck then deals the round's next kind that can start and keeps the network card for later in the
 * same round, where drawing anew would have starved the long network faults (a 30-minute run drew 50 even splits
 * against 108 long pauses).
 */
final class FaultDeck
{
    private final FaultKind[] cards;
    private final Random random;
    private int next;

    FaultDeck(final List<FaultKind> kinds, final Random random)
    {
        this.cards = kinds.toArray(new FaultKind[0]);
        this.random = random;
        this.next = cards.length;
    }

    /**
     * @param networkBusy whether a network fault is running.
     * @return the next kind to inject, or null when every card left in this round needs the busy network.
     */
    FaultKind deal(final boolean networkBusy)
    {
        if (cards.length == 0)
        {
            return null;
        }
        if (next == cards.length)
        {
            shuffle();
            next = 0;
        }
        for (int i = next; i < cards.length; i++)
        {
            if (!networkBusy || cards[i].scope() != FaultKind.Scope.NETWORK)
            {
                final FaultKind kind = cards[i];
                cards[i] = cards[next];
                cards[next++] = kind;
                return kind;
            }
        }
        return null;
    }

    private void shuffle()
    {
        for (int i = cards.length - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final FaultKind t = cards[i];
            cards[i] = cards[j];
            cards[j] = t;
        }
    }
}
