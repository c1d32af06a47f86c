package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.MembershipListener;

import java.io.PrintStream;

/**
 * The application's {@link MembershipListener} as the runtime calls it: whatever it throws stays here. The protocol
 * calls the listener in the middle of its own work (a notice is taken, then the listener told, then the notice
 * forwarded), and an exception escaping into it used to stop that broadcast at this node. Each exception is counted
 * ({@link io.ringwatch.transport.aeron.NodeCounter#LISTENER_EXCEPTIONS}) and the first of each callback is printed
 * with its stack trace; the next ones only count, so a listener failing on every call cannot flood the log or
 * allocate on every duty cycle.
 */
public final class GuardedListener implements MembershipListener
{
    private static final int ON_FAILURE = 0;
    private static final int ON_EXCLUDED = 1;
    private static final int ON_VIEW_CHANGE = 2;
    private static final int ON_JOIN = 3;
    private static final String[] CALLBACKS = {"onFailure", "onExcluded", "onViewChange", "onJoin"};

    private final MembershipListener application;
    private final int rank;
    private final PrintStream log;
    private final boolean[] reported = new boolean[CALLBACKS.length];
    private long exceptions;

    /**
     * @param application the application's listener.
     * @param rank        this node, for the log line.
     * @param log         where the first exception of each callback is printed.
     */
    public GuardedListener(final MembershipListener application, final int rank, final PrintStream log)
    {
        this.application = application;
        this.rank = rank;
        this.log = log;
    }

    /**
     * {@inheritDoc}
     */
    public void onFailure(final int deadRank, final long nowNs, final FailureCause cause, final int reporterRank)
    {
        try
        {
            application.onFailure(deadRank, nowNs, cause, reporterRank);
        }
        catch (final Throwable ex)
        {
            onException(ON_FAILURE, ex);
        }
    }

    /**
     * {@inheritDoc}
     */
    public void onExcluded(final long nowNs, final ExclusionCause cause, final int reporterRank)
    {
        try
        {
            application.onExcluded(nowNs, cause, reporterRank);
        }
        catch (final Throwable ex)
        {
            onException(ON_EXCLUDED, ex);
        }
    }

    /**
     * {@inheritDoc}
     */
    public void onViewChange(final long viewEpoch, final int deadCount, final long nowNs)
    {
        try
        {
            application.onViewChange(viewEpoch, deadCount, nowNs);
        }
        catch (final Throwable ex)
        {
            onException(ON_VIEW_CHANGE, ex);
        }
    }

    /**
     * {@inheritDoc}
     */
    public void onJoin(final int joinedRank, final long incarnation, final long nowNs)
    {
        try
        {
            application.onJoin(joinedRank, incarnation, nowNs);
        }
        catch (final Throwable ex)
        {
            onException(ON_JOIN, ex);
        }
    }

    /**
     * @return exceptions thrown by the application's listener so far.
     */
    public long exceptions()
    {
        return exceptions;
    }

    private void onException(final int callback, final Throwable ex)
    {
        exceptions++;
        if (!reported[callback])
        {
            reported[callback] = true;
            log.println("ringwatch rank " + rank + ": the application's listener threw from " + CALLBACKS[callback] +
                " (the protocol went on; further exceptions from " + CALLBACKS[callback] + " are only counted):");
            ex.printStackTrace(log);
        }
    }
}
