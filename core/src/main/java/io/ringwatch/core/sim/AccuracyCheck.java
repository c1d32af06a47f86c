package io.ringwatch.core.sim;

/**
 * Accuracy at the moment of each declaration of death: a node may declare a rank dead only once it stopped or while it
 * is silent for real; a suspicion the network forced (a cut) is the partition rule's business.
 */
public final class AccuracyCheck
{
    private AccuracyCheck()
    {
    }

    /**
     * What a declaration of death says about the protocol, judged at the moment it is made.
     */
    public enum Verdict
    {
        /** The rank had stopped: a true detection. */
        STOPPED,
        /**
         * The rank was silent for real (paused, or resumed less than δ ago): a legitimate suspicion that condemns
         * it; it must end excluded ({@link FencingCheck}).
         */
        CONDEMNED,
        /**
         * The network cut the rank off from the node that detected it: a suspicion the detector could not avoid;
         * what happens to the rank then is the partition rule's business.
         */
        CUT_OFF,
        /** The rank was running and had not been silent: an accuracy violation. */
        FALSE_SUSPICION
    }

    /**
     * Accuracy at the moment of each declaration: a node may declare a rank dead only once it stopped or while it
     * is silent for real.
     *
     * @param state    ground truth now.
     * @param detector the node that detected it (the declarer itself, or the source of the notice).
     * @param deadRank the rank declared dead.
     * @param nowNs    when.
     * @param deltaNs  δ: a rank resumed less than δ ago may not have beaten since.
     * @return the verdict.
     */
    public static Verdict judge(
        final ClusterState state, final int detector, final int deadRank, final long nowNs, final long deltaNs)
    {
        if (state.isStopped(deadRank))
        {
            return Verdict.STOPPED;
        }
        final long resumedNs = state.lastResumeNs(deadRank);
        if (state.isPaused(deadRank) || (resumedNs != ClusterState.NEVER && nowNs - resumedNs <= deltaNs))
        {
            return Verdict.CONDEMNED;
        }
        // the detection itself may be up to a broadcast older than its receipt: look back a few δ
        if (detector != deadRank && state.wasCut(deadRank, detector, nowNs - 4 * deltaNs, nowNs + 1))
        {
            return Verdict.CUT_OFF;
        }
        return Verdict.FALSE_SUSPICION;
    }

    /**
     * @param seed     for the message.
     * @param rank     the node that declared.
     * @param deadRank the rank it declared dead.
     * @param nowNs    when.
     * @param how      how it learned it, for the message.
     * @return the accuracy violation, spelled out.
     */
    public static String falseSuspicion(
        final long seed, final int rank, final int deadRank, final long nowNs, final String how)
    {
        return "seed=" + seed + ": accuracy: node " + rank + " declared " + deadRank + " dead at " + nowNs +
            "ns (" + how + ") while it was running";
    }
}
