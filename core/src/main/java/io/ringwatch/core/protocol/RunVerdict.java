package io.ringwatch.core.protocol;

/**
 * What the ear check ({@link ProbeSession}) decided about a silent run of predecessors, as data for the part that
 * acts on it ({@link Detection}): the kind, as the session's step returns it, and the run's extent. One per node,
 * rewritten by each verdict; allocation free.
 */
final class RunVerdict
{
    /** Probing goes on (or ended without a verdict); nothing to do. */
    static final int UNDECIDED = 0;
    /** Declare the run: {@link #endDistance()}, {@link #length()}, {@link #retell()}. */
    static final int DECLARE = 1;
    /** Nobody answered: this node is cut off or deaf, and stops without a word. */
    static final int ISOLATED = 2;
    /** Too few answered: stop as a minority, telling the side of the run closer than {@link #endDistance()}. */
    static final int MINORITY = 3;

    private int endDistance;
    private int length;
    private boolean retell;

    int declare(final int endDistance, final int length, final boolean retell)
    {
        this.endDistance = endDistance;
        this.length = length;
        this.retell = retell;
        return DECLARE;
    }

    int stop(final int endDistance, final boolean anyAnswered)
    {
        this.endDistance = endDistance;
        return anyAnswered ? MINORITY : ISOLATED;
    }

    /** @return ranks closer than this behind the node are the run. */
    int endDistance()
    {
        return endDistance;
    }

    /** @return how many live-in-view ranks a declared run holds, the emitter first. */
    int length()
    {
        return length;
    }

    /** @return true if a run was declared without every witness answering: retell the view once settled. */
    boolean retell()
    {
        return retell;
    }
}
