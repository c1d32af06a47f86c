package io.ringwatch.transport.aeron.internal;

import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * Sleeps a fixed period after every duty cycle, busy or not: for the media driver's threads when many nodes share
 * one driver.
 * <p>
 * Why not back off: a backoff strategy never sleeps while there is work, and with a cluster's worth of UDP streams
 * in one driver a heartbeat frame arrives almost every cycle, so each frame paid for a full cycle over every
 * publication, image and socket. Sixteen nodes at η = 1 ms kept the driver's network thread at 90-100 % of a core
 * and its conductor at 50-90 %, and the agents starved. Pacing batches the frames of one period into one cycle;
 * the period is the most a frame waits, small against any heartbeat period.
 */
public final class PacedIdleStrategy implements IdleStrategy
{
    /** What {@link #alias()} reports, as Agrona's strategies report theirs. */
    public static final String ALIAS = "paced";

    private final long periodNs;

    /**
     * @param periodNs sleep after each duty cycle, positive.
     */
    public PacedIdleStrategy(final long periodNs)
    {
        if (periodNs <= 0)
        {
            throw new IllegalArgumentException("pacing period must be positive: " + periodNs + "ns");
        }
        this.periodNs = periodNs;
    }

    /**
     * @return the sleep after each duty cycle.
     */
    public long periodNs()
    {
        return periodNs;
    }

    /**
     * {@inheritDoc}
     */
    public void idle(final int workCount)
    {
        LockSupport.parkNanos(periodNs);
    }

    /**
     * {@inheritDoc}
     */
    public void idle()
    {
        LockSupport.parkNanos(periodNs);
    }

    /**
     * {@inheritDoc}
     */
    public void reset()
    {
    }

    /**
     * {@inheritDoc}
     */
    public String alias()
    {
        return ALIAS;
    }

    public String toString()
    {
        return "PacedIdleStrategy{periodNs=" + periodNs + '}';
    }
}
