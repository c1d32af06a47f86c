package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;

/**
 * One log line per membership change a node's view shows, found by comparing each view read with the last: a death
 * with its cause and reporter, a join with its incarnation (which also re-arms the rank's next death), this node's
 * own admission. Its own exclusion is the node's stop line ({@code NodeCommand}).
 */
final class MembershipLog
{
    private final System.Logger log;
    private final int ownRank;
    private final boolean[] dead;
    private final long[] incarnation;
    private NodeState ownState;

    /**
     * @param clusterSize N.
     * @param ownRank     this node's rank.
     * @param log         where the lines go.
     */
    MembershipLog(final int clusterSize, final int ownRank, final System.Logger log)
    {
        this.ownRank = ownRank;
        this.log = log;
        this.dead = new boolean[clusterSize];
        this.incarnation = new long[clusterSize];
    }

    /**
     * @param view the node's view, just read.
     */
    void log(final ViewSnapshot view)
    {
        final NodeState state = view.state();
        if (state != ownState)
        {
            if (ownState == NodeState.JOINING && state == NodeState.ACTIVE)
            {
                log.log(Level.INFO, "membership: this node (rank " + ownRank + ") ADMITTED with incarnation " +
                    view.incarnation(ownRank) + ", view epoch " + view.viewEpoch());
            }
            ownState = state;
        }
        for (int r = 0; r < dead.length; r++)
        {
            final boolean isDead = view.isDead(r);
            if (isDead && !dead[r])
            {
                log.log(Level.INFO, "membership: rank " + r + " " + deathName(view.cause(r)) + ": " +
                    causeText(view, r) + " at mono=" + CliLogging.mono(view.detectedAtNs(r)) + " (+" +
                    TimeUnit.NANOSECONDS.toMillis(view.detectedAtNs(r) - view.startNs()) +
                    " ms since this node started), view epoch " + view.viewEpoch() + ", " + view.deadCount() +
                    " dead");
            }
            else if (!isDead && r != ownRank && (dead[r] || view.incarnation(r) != incarnation[r]) &&
                view.cause(r) == ViewLayout.CAUSE_JOINED)
            {
                log.log(Level.INFO, "membership: rank " + r + " JOINED with incarnation " + view.incarnation(r) +
                    " at mono=" + CliLogging.mono(view.detectedAtNs(r)) + ", view epoch " + view.viewEpoch() + ", " +
                    view.deadCount() + " dead");
            }
            dead[r] = isDead;
            incarnation[r] = view.incarnation(r);
        }
    }

    private static String deathName(final int cause)
    {
        return cause == ViewLayout.CAUSE_LEFT ? "LEFT" : "DEAD";
    }

    private String causeText(final ViewSnapshot view, final int r)
    {
        final int reporter = view.reporter(r);
        switch (view.cause(r))
        {
            case ViewLayout.CAUSE_DETECTED:
                return reporter == ownRank ? "detected by this node (its observer)" :
                    "detected by rank " + reporter;
            case ViewLayout.CAUSE_NOTICE:
                return "notice, detected by rank " + reporter;
            case ViewLayout.CAUSE_LEFT:
                return "it announced its leave, reported by rank " + reporter;
            default:
                return ViewLayout.causeName(view.cause(r)) + ", reported by rank " + reporter;
        }
    }
}
