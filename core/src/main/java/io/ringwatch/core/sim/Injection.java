package io.ringwatch.core.sim;

/**
 * A scripted fault.
 *
 * @param kind       what happens.
 * @param rank       to whom.
 * @param timeNs     virtual time at which it happens.
 * @param durationNs how long a pause lasts; 0 for the other kinds.
 */
public record Injection(Kind kind, int rank, long timeNs, long durationNs)
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
        LEAVE
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
        if (kind == Kind.PAUSE ? durationNs <= 0 : durationNs != 0)
        {
            throw new IllegalArgumentException("durationNs must be > 0 for a pause and 0 otherwise: " + durationNs);
        }
    }

    /**
     * @param rank   to crash.
     * @param timeNs when.
     * @return the injection.
     */
    public static Injection crash(final int rank, final long timeNs)
    {
        return new Injection(Kind.CRASH, rank, timeNs, 0);
    }

    /**
     * @param rank       to pause.
     * @param timeNs     when.
     * @param durationNs for how long.
     * @return the injection.
     */
    public static Injection pause(final int rank, final long timeNs, final long durationNs)
    {
        return new Injection(Kind.PAUSE, rank, timeNs, durationNs);
    }

    /**
     * @param rank   to leave.
     * @param timeNs when.
     * @return the injection.
     */
    public static Injection leave(final int rank, final long timeNs)
    {
        return new Injection(Kind.LEAVE, rank, timeNs, 0);
    }
}
