package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.RankArray;

import java.util.Arrays;

/**
 * The membership side of one {@link DetectorNode}: incarnations of the ranks that rejoined, the joiner's progress
 * through the join protocol, and the contact's memory of the ranks it admitted lately. Kept apart from the
 * detector's tasks so the join rules read in one place; the node calls in at a few hooks.
 * <p>
 * <b>Incarnations only grow.</b> Every rank starts at the boot incarnation 0, which every member assumes for a rank
 * it has heard nothing else about; a restarted rank joins under a higher one. A rank's state in a view is the pair
 * (incarnation, dead or alive), ordered by incarnation and then dead above alive, and every rule only moves it up
 * that order: a JOIN of a newer incarnation revives the rank, a death of the known (or a newer) incarnation kills
 * it, anything older is stale. So views converge whatever order the broadcasts arrive in.
 * <p>
 * <b>Joining.</b> The joiner asks contacts in turn, its ring neighbours first (successor, predecessor) and then the
 * rest in cluster-file order, one every {@link #retryNs()}, until a VIEW arrives. After it the joiner waits to be
 * confirmed: its successor's NEW_OBSERVER (the successor knows of the join) and a heartbeat from its emitter (the
 * predecessor does too). Until then it asks again, and a contact that already admitted this incarnation sends the
 * view again and re-broadcasts the JOIN, which repairs a JOIN broadcast cut short by its source's death.
 */
final class Membership
{
    /** Incarnation of a frame whose sender's incarnation the driver does not know. */
    static final long UNKNOWN_INCARNATION = InboundFrame.UNKNOWN_INCARNATION;

    private static final int ADMITTED_CAPACITY = 4;
    private static final int NONE = -1;

    private final IncarnationTable incarnations = new IncarnationTable(4);
    private final int[] admitted = new int[ADMITTED_CAPACITY];
    private final long retryNs;
    private int admittedNext;
    private int seedCount = Integer.MAX_VALUE;

    private boolean joining;
    private boolean confirmed = true;
    private boolean observerConfirmed;
    private boolean emitterHeard;
    private int attempts;
    private long nextAttemptNs = Long.MAX_VALUE;
    private long viewAtNs;
    private boolean viewSeen;
    private boolean reaskPending;

    Membership(final long retryNs)
    {
        this.retryNs = retryNs;
        Arrays.fill(admitted, NONE);
    }

    IncarnationTable incarnations()
    {
        return incarnations;
    }

    long incarnationOf(final int rank)
    {
        return incarnations.incarnationOf(rank);
    }

    /**
     * @return true if {@code incarnation} is known and older than the one this view holds for {@code rank}.
     */
    boolean isStale(final int rank, final long incarnation)
    {
        return incarnation != UNKNOWN_INCARNATION && incarnation < incarnations.incarnationOf(rank);
    }

    /**
     * The contact side: remember a rank just admitted, so broadcasts that started before its JOIN (their D_msg still
     * holds it, so their schedules skip it) are passed on to it.
     */
    void admitted(final int rank)
    {
        for (final int r : admitted)
        {
            if (r == rank)
            {
                return;
            }
        }
        admitted[admittedNext] = rank;
        admittedNext = (admittedNext + 1) % ADMITTED_CAPACITY;
    }

    int admittedCount()
    {
        return ADMITTED_CAPACITY;
    }

    /**
     * @return a rank admitted lately through this node, or -1.
     */
    int admittedAt(final int index)
    {
        return admitted[index];
    }

    long retryNs()
    {
        return retryNs;
    }

    void startJoin(final long nowNs)
    {
        joining = true;
        confirmed = false;
        observerConfirmed = false;
        emitterHeard = false;
        attempts = 0;
        nextAttemptNs = nowNs;
    }

    /**
     * @return the contact to ask now if an attempt is due, else -1; schedules the next attempt.
     */
    int nextContact(final int rank, final int clusterSize, final long nowNs)
    {
        if (confirmed || nowNs - nextAttemptNs < 0 || clusterSize < 2)
        {
            return NONE;
        }
        nextAttemptNs = nowNs + retryNs;
        return contact(rank, clusterSize, seedCount, attempts++);
    }

    /**
     * Start = join: ranks below {@code seedCount} form the initial membership and every other rank joins. A joiner
     * then asks the seeds right after its ring neighbours: at boot its neighbours are often joining too.
     *
     * @param seedCount   the seeds, the first ranks of the cluster file.
     * @param clusterSize N.
     */
    void seeds(final int seedCount, final int clusterSize)
    {
        if (seedCount < 1 || seedCount > clusterSize)
        {
            throw new IllegalArgumentException("seeds must be in [1, " + clusterSize + "]: " + seedCount);
        }
        this.seedCount = seedCount;
    }

    /**
     * A seed's view at boot: every rank that is no seed is dead, not yet admitted, at the boot incarnation 0, so its
     * first life joins under a higher one. Nobody is told: no failure happened.
     *
     * @param dead        the seed's dead set, empty.
     * @param clusterSize N.
     */
    void holdNotYetAdmitted(final RankArray dead, final int clusterSize)
    {
        for (int r = seedCount; r < clusterSize; r++)
        {
            dead.add(r);
        }
    }

    /**
     * Contacts in the order they are asked when the cluster boots through joins: successor, predecessor, the seeds
     * in rank order, then every other rank in cluster-file order from the successor's successor on. Without seeds
     * ({@code seedCount >= clusterSize}) as {@link #contact(int, int, int)}.
     *
     * @param rank        the joiner.
     * @param clusterSize N, at least 2.
     * @param seedCount   the seeds, ranks below it.
     * @param attempt     from 0.
     * @return the rank to ask.
     */
    static int contact(final int rank, final int clusterSize, final int seedCount, final int attempt)
    {
        if (seedCount >= clusterSize)
        {
            return contact(rank, clusterSize, attempt);
        }
        final int k = attempt % (clusterSize - 1);
        final int successor = (rank + 1) % clusterSize;
        final int predecessor = Math.floorMod(rank - 1, clusterSize);
        if (k == 0)
        {
            return successor;
        }
        if (k == 1)
        {
            return predecessor;
        }
        int index = 2;
        for (int s = 0; s < seedCount; s++)
        {
            if (s != rank && s != successor && s != predecessor && index++ == k)
            {
                return s;
            }
        }
        for (int step = 2; step <= clusterSize - 2; step++)
        {
            final int r = (rank + step) % clusterSize;
            if (r >= seedCount && index++ == k)
            {
                return r;
            }
        }
        return successor;
    }

    /**
     * Contacts in the order they are asked: successor, predecessor, then every other rank in cluster-file order from
     * the successor's successor on.
     *
     * @param rank        the joiner.
     * @param clusterSize N, at least 2.
     * @param attempt     from 0.
     * @return the rank to ask.
     */
    static int contact(final int rank, final int clusterSize, final int attempt)
    {
        final int offset = attempt % (clusterSize - 1);
        final int step = offset == 0 ? 1 : offset == 1 ? clusterSize - 1 : offset;
        return (int)(((long)rank + step) % clusterSize);
    }

    /**
     * The view arrived: the joiner takes part, and waits for its neighbours to confirm.
     */
    void viewReceived(final long nowNs)
    {
        viewAtNs = nowNs;
        viewSeen = true;
        joining = false;
        nextAttemptNs = nowNs + retryNs;
        checkConfirmed();
    }

    /**
     * A death was learned. A JOIN broadcast is not repaired by later broadcasts as a failure notice is (through
     * D_msg): one cut short by a forwarder's death leaves part of the cluster without it. So a joined node that learns
     * a death within {@code windowNs} of its view (the death may have struck while its JOIN spread) asks once more;
     * the contact re-broadcasts the JOIN around the dead.
     *
     * @param nowNs    protocol time.
     * @param windowNs how long after the view a death may still have cut the JOIN short.
     */
    void deathLearned(final long nowNs, final long windowNs)
    {
        if (viewSeen && nowNs - viewAtNs <= windowNs)
        {
            reaskPending = true;
        }
    }

    /**
     * @return true once for each {@link #deathLearned} that asked for a re-broadcast.
     */
    boolean takeReask()
    {
        final boolean pending = reaskPending;
        reaskPending = false;
        return pending;
    }

    /**
     * The joiner re-formed the cluster as its lone seed ({@link Reform}): a member with nothing left to confirm.
     */
    void reformed()
    {
        joining = false;
        confirmed = true;
        nextAttemptNs = Long.MAX_VALUE;
    }

    void observerConfirmed()
    {
        observerConfirmed = true;
        checkConfirmed();
    }

    /**
     * The observer a joiner took before it had the view is not the view's: none has adopted it until the view's one
     * does, and it does not beat meanwhile (a successor that has not learned the JOIN would fence the beats).
     */
    void observerWithdrawn()
    {
        observerConfirmed = false;
    }

    void emitterHeard()
    {
        if (!emitterHeard)
        {
            emitterHeard = true;
            checkConfirmed();
        }
    }

    private void checkConfirmed()
    {
        if (!joining && observerConfirmed && emitterHeard)
        {
            confirmed = true;
            nextAttemptNs = Long.MAX_VALUE;
        }
    }

    /**
     * @return false while a joined node's successor has not adopted it: until then its heartbeats would land in the
     * slot of a node that may not know of the join yet.
     */
    boolean mayBeat()
    {
        return confirmed || observerConfirmed;
    }

    boolean confirmed()
    {
        return confirmed;
    }

    int attempts()
    {
        return attempts;
    }

    /**
     * @return when the next join request is due, {@link Long#MAX_VALUE} once confirmed.
     */
    long nextAttemptNs()
    {
        return confirmed ? Long.MAX_VALUE : nextAttemptNs;
    }
}
