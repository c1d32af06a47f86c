package io.ringwatch.core.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * A scripted fault.
 *
 * @param kind       what happens.
 * @param rank       to whom; for a cut, the sending side of the link; for a forgery, the rank the forged notice names.
 * @param timeNs     virtual time at which it happens.
 * @param durationNs how long a pause or a cut lasts; 0 for the other kinds.
 * @param peer       for a cut, the receiving side of the link; for a forgery, the node it is sent to; -1 for the other
 *                   kinds.
 */
public record Injection(Kind kind, int rank, long timeNs, long durationNs, int peer)
{
    /**
     * Fault kinds.
     */
    public enum Kind
    {
        /** Stop forever without a word. */
        CRASH,
        /** Stop for a while, then carry on as if nothing happened (GC, preemption, a stuck NIC). */
        PAUSE,
        /** Leave gracefully through the protocol. */
        LEAVE,
        /** Lose every message on one directed link for a while (the other direction still works). */
        CUT,
        /**
         * An outsider without the cluster key sends one node a FAILURE_NOTICE naming a live rank, claiming to come from
         * a live member: the frame goes through the receiver's real {@code FrameDecoder}.
         */
        FORGE
    }

    /**
     * Validates the fields that do not depend on the cluster.
     */
    public Injection
    {
        if (kind == null)
        {
            throw new IllegalArgumentException("kind must not be null");
        }
        if (timeNs < 0)
        {
            throw new IllegalArgumentException("timeNs must be >= 0: " + timeNs);
        }
        final boolean lasts = kind == Kind.PAUSE || kind == Kind.CUT;
        if (lasts ? durationNs <= 0 : durationNs != 0)
        {
            throw new IllegalArgumentException(
                "durationNs must be > 0 for a pause or a cut and 0 otherwise: " + durationNs);
        }
        final boolean linked = kind == Kind.CUT || kind == Kind.FORGE;
        if (linked ? peer < 0 || peer == rank : peer != -1)
        {
            throw new IllegalArgumentException(
                "peer must be another rank for a cut or a forgery and -1 otherwise: " + peer);
        }
    }

    /**
     * @param rank   to crash.
     * @param timeNs when.
     * @return the injection.
     */
    public static Injection crash(final int rank, final long timeNs)
    {
        return new Injection(Kind.CRASH, rank, timeNs, 0, -1);
    }

    /**
     * @param rank       to pause.
     * @param timeNs     when.
     * @param durationNs for how long.
     * @return the injection.
     */
    public static Injection pause(final int rank, final long timeNs, final long durationNs)
    {
        return new Injection(Kind.PAUSE, rank, timeNs, durationNs, -1);
    }

    /**
     * @param rank   to leave.
     * @param timeNs when.
     * @return the injection.
     */
    public static Injection leave(final int rank, final long timeNs)
    {
        return new Injection(Kind.LEAVE, rank, timeNs, 0, -1);
    }

    /**
     * @param from       sender whose messages are lost.
     * @param to         receiver that does not get them.
     * @param timeNs     when the cut starts.
     * @param durationNs how long it lasts.
     * @return the injection.
     */
    public static Injection cut(final int from, final int to, final long timeNs, final long durationNs)
    {
        return new Injection(Kind.CUT, from, timeNs, durationNs, to);
    }

    /**
     * A split placed by hand, unlike a {@link Partition}, whose groups' place on the ring the seed decides: every link
     * between the two sides cut both ways.
     *
     * @param sideA      ranks on one side.
     * @param sideB      ranks on the other.
     * @param timeNs     when the cuts start.
     * @param durationNs how long they last.
     * @return the cuts.
     */
    public static List<Injection> cutsBetween(final int[] sideA, final int[] sideB, final long timeNs,
        final long durationNs)
    {
        final List<Injection> cuts = new ArrayList<>(2 * sideA.length * sideB.length);
        for (final int a : sideA)
        {
            for (final int b : sideB)
            {
                cuts.add(cut(a, b, timeNs, durationNs));
                cuts.add(cut(b, a, timeNs, durationNs));
            }
        }
        return cuts;
    }

    /**
     * @param victim   the live rank the forged notice names dead.
     * @param receiver the node the outsider sends it to.
     * @param timeNs   when it arrives.
     * @return the injection.
     */
    public static Injection forge(final int victim, final int receiver, final long timeNs)
    {
        return new Injection(Kind.FORGE, victim, timeNs, 0, receiver);
    }
}
