package io.ringwatch.transport.aeron.internal;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The low-noise idle strategy: when a duty cycle found nothing to do, sleep until the protocol's next deadline
 * (heartbeat due, suspicion expiry) but never longer than {@code maxParkNs}, which bounds how long a notice or
 * control frame waits to be polled. The runtime's default cap is η ({@code ringwatch.idle.max.sleep}): a beating
 * node is woken every η anyway, so the cap costs no wake-up of its own. A fixed 1 ms cap woke agents 1,000 times a
 * second at any η and cost DGEMM 6-9 % on a shared core even at η = 100 ms.
 * <p>
 * Why not Agrona's backoff: it restarts from spinning after every cycle that did work, and a node does work twice
 * per heartbeat period (its own beat, its emitter's progress). At η = 1 ms that was four to five wake-ups per
 * millisecond and 10-17 % of a core per agent on the 2-core test host; sleeping to the deadline is one or two
 * wake-ups per period, which is the whole point of the low-noise profile.
 */
public final class DeadlineIdleStrategy implements IdleStrategy
{
    /** Shortest sleep worth a system call; below it the strategy yields instead. */
    public static final long MIN_PARK_NS = 20_000;

    private final long maxParkNs;
    private final NanoClock clock;
    private final AtomicLong parks = new AtomicLong();
    private LongSupplier nextDeadlineNs = () -> Long.MAX_VALUE;

    /**
     * @param maxParkNs longest sleep, the most a frame waits to be polled; at least {@link #MIN_PARK_NS}.
     */
    public DeadlineIdleStrategy(final long maxParkNs)
    {
        this(maxParkNs, SystemNanoClock.INSTANCE);
    }

    /**
     * @param maxParkNs longest sleep; at least {@link #MIN_PARK_NS}.
     * @param clock     the clock the deadlines are expressed in.
     */
    public DeadlineIdleStrategy(final long maxParkNs, final NanoClock clock)
    {
        if (maxParkNs < MIN_PARK_NS)
        {
            throw new IllegalArgumentException("maxParkNs must be >= " + MIN_PARK_NS + ": " + maxParkNs);
        }
        this.maxParkNs = maxParkNs;
        this.clock = clock;
    }

    /**
     * @param nextDeadlineNs the agent's next protocol deadline, read on the agent thread after each idle cycle.
     * @return this.
     */
    public DeadlineIdleStrategy deadlines(final LongSupplier nextDeadlineNs)
    {
        this.nextDeadlineNs = nextDeadlineNs;
        return this;
    }

    /**
     * @return the longest sleep.
     */
    public long maxParkNs()
    {
        return maxParkNs;
    }

    /**
     * {@inheritDoc}
     */
    public void idle(final int workCount)
    {
        if (workCount <= 0)
        {
            idle();
        }
    }

    /**
     * {@inheritDoc}
     */
    public void idle()
    {
        final long parkNs = parkNs();
        if (parkNs >= MIN_PARK_NS)
        {
            parks.setRelease(parks.getPlain() + 1);  // single writer: the agent thread
            LockSupport.parkNanos(parkNs);
        }
        else
        {
            Thread.yield();
        }
    }

    /**
     * @return how long an idle cycle would sleep now: until the next deadline, at most {@code maxParkNs}; below
     * {@link #MIN_PARK_NS} it yields instead.
     */
    public long parkNs()
    {
        return Math.min(nextDeadlineNs.getAsLong() - clock.nanoTime(), maxParkNs);
    }

    /**
     * @return sleeps taken so far, each one wake-up of the agent's thread; readable from any thread.
     */
    public long parks()
    {
        return parks.getAcquire();
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
        return "deadline";
    }
}
