package io.ringwatch.core.sim;

import java.util.List;

/**
 * Membership agreement after restarts: every live node holds a restarted rank at the same incarnation, and a running
 * restarted rank was admitted everywhere under its latest one.
 */
public final class RejoinCheck
{
    private RejoinCheck()
    {
    }

    /**
     * Membership agreement after restarts: for every rank that restarted, every live node holds the same incarnation
     * for it, and a restarted rank that is running was admitted, under its latest incarnation, by every live node
     * (it is in nobody's dead set; {@link RingCheck} then checks the ring covers it).
     *
     * @param state cluster at the end of a run.
     * @param seed  for the messages.
     * @param out   violations are appended here.
     * @return restarted ranks running at the end and admitted everywhere.
     */
    public static int check(final ClusterState state, final long seed, final List<String> out)
    {
        int rejoined = 0;
        int broken = 0;
        final int n = state.clusterSize();
        for (int r = 0; r < n; r++)
        {
            if (state.incarnation(r) == 0)
            {
                continue;
            }
            final boolean running = !state.isStopped(r);
            if (running && !state.isAdmitted(r) && broken++ < Checks.MAX_REPORTED)
            {
                out.add("seed=" + seed + ": join: restarted node " + r + " (incarnation " + state.incarnation(r) +
                    ") is running but was never admitted");
            }
            long agreed = -1;
            boolean admittedEverywhere = running && state.isAdmitted(r);
            for (int viewer = 0; viewer < n; viewer++)
            {
                if (state.isStopped(viewer))
                {
                    continue;
                }
                final long known = state.knownIncarnation(viewer, r);
                if (agreed < 0)
                {
                    agreed = known;
                }
                else if (known != agreed && broken++ < Checks.MAX_REPORTED)
                {
                    out.add("seed=" + seed + ": join: live nodes disagree on the incarnation of " + r + ": " +
                        agreed + " and " + known + " (node " + viewer + ")");
                }
                if (running && (known != state.incarnation(r) || state.deadSet(viewer).contains(r)))
                {
                    admittedEverywhere = false;
                    if (broken++ < Checks.MAX_REPORTED)
                    {
                        out.add("seed=" + seed + ": join: node " + viewer + " holds running node " + r + " at " +
                            "incarnation " + known + (state.deadSet(viewer).contains(r) ? " dead" : " alive") +
                            ", its incarnation is " + state.incarnation(r));
                    }
                }
            }
            rejoined += admittedEverywhere ? 1 : 0;
        }
        Checks.reportRest(out, seed, "join", broken);
        return rejoined;
    }
}
