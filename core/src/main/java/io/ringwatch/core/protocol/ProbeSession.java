package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.RankSet;

/**
 * The ear check of {@link PartitionPolicy#MAJORITY}: what a node does between its emitter's suspicion deadline and a
 * notice, so that a node that cannot hear accuses nobody.
 * <p>
 * A session probes a set of witnesses (the observer and the ranks 2^i away on either side: a sample of the whole
 * ring) and the emitter's predecessors, the emitter and the next one first, then batches twice as large every probe
 * timeout, until one beyond the emitter answers. The run of predecessors before it that stayed silent for δ more
 * (re-probed meanwhile, so a lost probe or answer does not make a live node look silent) is declared in one notice
 * if what is left alive is a majority of the settled membership; otherwise the node stops as
 * {@link ExclusionCause#MINORITY}, or as {@link ExclusionCause#ISOLATED} without a word if nobody answered. A rank's
 * answer counts once, whichever probe it answers; before a run longer than the emitter, or one found by counting, is
 * declared, the evidence is asked for again ({@link ProbeRecheck}), so that answers heard while a flapping link was
 * up for a moment do not declare a run whose silence is the next cut.
 * <p>
 * It decides and returns a verdict; {@link Detection} carries it out. Part of one {@link DetectorNode}, driven by its
 * thread alone; it owns the probe tokens ({@link Prober}), so the node's minority verification ({@link MajorityRule})
 * draws its tokens here too. Allocation free.
 */
final class ProbeSession
{
    /** Token bit of a probe checking a minority notice. */
    static final long VERIFY = 1;

    private static final int MAX_PROBE_ROUNDS = 40;
    private static final int NO_ANSWER = Integer.MAX_VALUE;
    private static final long NOT_YET = Long.MIN_VALUE;

    private final Ring ring;
    private final Observation observation;
    private final int rank;
    private final int clusterSize;
    private final RankSet dead;
    private final Quorum quorum;
    private final Prober prober;
    private final long heartbeatPeriodNs;
    private final long suspicionTimeoutNs;
    private final long probeTimeoutNs;
    private final boolean recheckOn;
    private final boolean countAgain;
    private final boolean staleCount;
    private final ProtocolSettings settings;
    // made at the first session, so a node that never probes pays nothing (see ProbeTally)
    private int[] roundFirstDistance;
    private long[] roundSentNs;
    private ProbeRecheck recheck;
    private final ProbeTally tally;

    // runRounds == 0: no session
    private long runToken;
    private int runRounds;
    private int runCursor;
    private int runBatch;
    private boolean runExhausted;
    private int runAnswerDistance = NO_ANSWER;
    private long runConfirmAtNs = NOT_YET;
    private long runReprobeNs;
    private int runFarthestDistance;
    private long evidenceSinceNs = NOT_YET;
    private long finalCountDueNs = NOT_YET;
    private final RunVerdict verdict = new RunVerdict();

    ProbeSession(
        final int rank,
        final Ring ring,
        final Observation observation,
        final RankSet dead,
        final Quorum quorum,
        final ControlChannel control,
        final ProtocolSettings settings,
        final ProtocolCounters counters)
    {
        this.ring = ring;
        this.observation = observation;
        this.rank = rank;
        this.clusterSize = settings.clusterSize();
        this.dead = dead;
        this.quorum = quorum;
        this.prober = new Prober(control, counters);
        this.heartbeatPeriodNs = settings.heartbeatPeriodNs();
        this.suspicionTimeoutNs = settings.suspicionTimeoutNs();
        this.probeTimeoutNs = settings.probeTimeoutNs();
        this.recheckOn = !settings.breaks(BrokenRules.BREAK_FRESH_EVIDENCE);
        this.countAgain = !settings.breaks(BrokenRules.BREAK_COUNT_AGAIN);
        this.staleCount = settings.breaks(BrokenRules.BREAK_STALE_COUNT);
        this.tally = new ProbeTally(rank, clusterSize, dead, quorum,
            !settings.breaks(BrokenRules.BREAK_THIN_WITNESSES));
        this.settings = settings;
    }

    /** @return true while a silent emitter's run is being probed. */
    boolean active()
    {
        return runRounds != 0;
    }

    /**
     * Drop the session: the emitter was heard, the ring changed, or this node's own stall voided the evidence.
     */
    void cancel()
    {
        runRounds = 0;
    }

    /** @return a fresh probe epoch, shifted left by two to leave room for {@link #VERIFY}. */
    long nextToken()
    {
        return prober.nextToken();
    }

    /**
     * Interval at which silent ranks are asked again while their silence is confirmed.
     */
    long reprobeIntervalNs()
    {
        return Math.max(1, suspicionTimeoutNs / 8);
    }

    void probe(final int to, final long token)
    {
        prober.probe(to, token);
    }

    /**
     * The emitter's suspicion deadline passed without probing (probe timeout 0): the run is the emitter alone.
     *
     * @return the verdict: {@link RunVerdict#DECLARE} or {@link RunVerdict#MINORITY}.
     */
    int resolveEmitterAlone(final long nowNs)
    {
        runAnswerDistance = ring.distance(observation.emitter()) + 1;
        return resolve(nowNs);
    }

    /** @return the extent of the run the last verdict judged. */
    RunVerdict verdict()
    {
        return verdict;
    }

    /**
     * The emitter's suspicion deadline passed with probing on: start probing, send the next round (to find where
     * the run of silent predecessors ends, or to count a majority when a witness did not answer), re-probe the run
     * while its silence is being confirmed, and declare it or stop once the evidence is in.
     *
     * @return the verdict, {@link RunVerdict#UNDECIDED} while probing goes on.
     */
    int step(final long nowNs)
    {
        if (runRounds == 0)
        {
            start(nowNs);
            return RunVerdict.UNDECIDED;
        }
        if (rechecking())
        {
            final int outcome = recheck.step(nowNs);
            if (outcome == ProbeRecheck.VOID)
            {
                // the earlier evidence does not hold: probing starts afresh
                runRounds = 0;
            }
            return outcome == ProbeRecheck.DUE ? resolve(nowNs) : RunVerdict.UNDECIDED;
        }
        final boolean evidence = hasMajorityEvidence();
        if (evidence && evidenceSinceNs == NOT_YET)
        {
            // proof of a working ear came now (perhaps a cut just healed): the run gets a heartbeat period from now
            evidenceSinceNs = nowNs;
            if (runConfirmAtNs != NOT_YET && runConfirmAtNs - (nowNs + heartbeatPeriodNs) < 0)
            {
                runConfirmAtNs = nowNs + heartbeatPeriodNs;
            }
        }
        final long roundDueNs = roundSentNs[runRounds - 1] + probeTimeoutNs;
        final boolean lookFurther = !runExhausted && (runConfirmAtNs == NOT_YET || !evidence);
        if (lookFurther && nowNs - roundDueNs >= 0)
        {
            sendRound(nowNs);
        }
        final long allAskedSilentNs = roundSentNs[runRounds - 1] + suspicionTimeoutNs;
        if (runConfirmAtNs == NOT_YET && runExhausted && nowNs - (roundSentNs[runRounds - 1] + probeTimeoutNs) >= 0)
        {
            // everyone was asked and no predecessor answered: they must stay silent for δ from the last round
            startConfirming(nowNs, allAskedSilentNs);
        }
        if (runConfirmAtNs != NOT_YET && nowNs - runConfirmAtNs >= 0)
        {
            if (evidence)
            {
                return resolve(nowNs);
            }
            if (runExhausted && nowNs - allAskedSilentNs >= 0)
            {
                if (countAgain && finalCountDueNs == NOT_YET)
                {
                    finalCountDueNs = nowNs + probeTimeoutNs;
                    askUnansweredBeyondRun();
                }
                if (finalCountDueNs == NOT_YET || nowNs - finalCountDueNs >= 0)
                {
                    // everyone was asked, δ ago and once more now, and fewer than a majority answered: this side is
                    // a minority
                    return stopUncounted();
                }
                // answers wake the node (onAck); otherwise it decides when the last count is due
                observation.suspicionDeadline(finalCountDueNs);
                return RunVerdict.UNDECIDED;
            }
        }
        final int emitter = observation.emitter();
        if (runConfirmAtNs != NOT_YET && nowNs - runReprobeNs >= 0)
        {
            // a lost probe or answer must not make a live node look silent: ask the run again
            for (int r = emitter; r != rank && ring.distance(r) < runAnswerDistance; r = ring.previousAlive(r))
            {
                probe(r, runToken);
            }
            runReprobeNs = nowNs + reprobeIntervalNs();
        }
        long nextNs = nowNs + reprobeIntervalNs();
        if (!runExhausted && (runConfirmAtNs == NOT_YET || !hasMajorityEvidence()))
        {
            nextNs = earlier(nextNs, roundSentNs[runRounds - 1] + probeTimeoutNs);
        }
        if (runConfirmAtNs == NOT_YET && runExhausted)
        {
            nextNs = earlier(nextNs, roundSentNs[runRounds - 1] + probeTimeoutNs);
        }
        if (runConfirmAtNs != NOT_YET)
        {
            nextNs = earlier(nextNs, runReprobeNs);
            nextNs = earlier(nextNs, runConfirmAtNs - nowNs > 0 ? runConfirmAtNs :
                roundSentNs[runRounds - 1] + (runExhausted ? suspicionTimeoutNs : probeTimeoutNs));
        }
        observation.suspicionDeadline(nextNs - nowNs > 0 ? nextNs : nowNs + 1);
        return RunVerdict.UNDECIDED;
    }

    /**
     * A PROBE_ACK with this session's token: count its rank (once) and place the run's end.
     *
     */
    void onAck(final int fromRank, final long token, final long nowNs)
    {
        if (runRounds == 0 || token != runToken)
        {
            return;
        }
        final int emitter = observation.emitter();
        if (fromRank == emitter)
        {
            // the emitter lives and reaches us; its beats will tell the rest, once it knows to send them here
            runRounds = 0;
            observation.emitterAnswered(nowNs);
            return;
        }
        tally.count(fromRank);
        final int d = ring.distance(fromRank);
        if (d < runAnswerDistance && d <= runFarthestDistance)
        {
            runAnswerDistance = d;
            // in the recheck an answer only shortens the run, whose rest stayed silent for δ already
            if (!rechecking())
            {
                startConfirmingRun(fromRank, d, emitter, nowNs);
            }
        }
        // weigh the evidence in the next duty cycle
        observation.suspicionDeadline(nowNs);
    }

    /**
     * The nearest answer so far ({@code fromRank}, at distance {@code d}) ends the run: give the run before it its
     * confirmation deadline.
     */
    private void startConfirmingRun(final int fromRank, final int d, final int emitter, final long nowNs)
    {
        if (ring.previousAlive(emitter) == fromRank)
        {
            // The run is the emitter alone, silent for δ already: the fast path of a single crash. This answer
            // proves we hear now, not that we heard during the silence (a cut that just healed), so the emitter
            // gets one heartbeat period more, and one more probe, to show it lives.
            if (runConfirmAtNs == NOT_YET || runConfirmAtNs - (nowNs + heartbeatPeriodNs) > 0)
            {
                probe(emitter, runToken);
                startConfirming(nowNs, nowNs + heartbeatPeriodNs);
                runReprobeNs = runConfirmAtNs;
            }
        }
        else if (runConfirmAtNs == NOT_YET)
        {
            int round = runRounds - 1;
            while (round > 0 && roundFirstDistance[round] > d)
            {
                round--;
            }
            startConfirming(nowNs, roundSentNs[round] + suspicionTimeoutNs);
        }
    }

    /** @return true while the recheck asks the evidence again (none before the first session, which makes it). */
    private boolean rechecking()
    {
        return recheck != null && recheck.active();
    }

    /** @return true once this node has heard enough to be sure it is on a majority side ({@link ProbeTally}). */
    boolean hasMajorityEvidence()
    {
        return tally.hasMajorityEvidence();
    }

    private static long earlier(final long a, final long b)
    {
        return a - b <= 0 ? a : b;
    }

    /**
     * Probe the witnesses and the first round of predecessors: the emitter and its own predecessor.
     */
    private void start(final long nowNs)
    {
        final int emitter = observation.emitter();
        runToken = nextToken();
        runCursor = emitter;
        runBatch = 2;
        runExhausted = false;
        runAnswerDistance = NO_ANSWER;
        runConfirmAtNs = NOT_YET;
        runFarthestDistance = 0;
        evidenceSinceNs = NOT_YET;
        finalCountDueNs = NOT_YET;
        if (roundSentNs == null)
        {
            roundFirstDistance = new int[MAX_PROBE_ROUNDS];
            roundSentNs = new long[MAX_PROBE_ROUNDS];
            recheck = new ProbeRecheck(rank, ring, observation, tally, quorum, prober, settings);
        }
        recheck.reset();
        tally.startSession(emitter);
        prober.probeWitnesses(tally, runToken);
        sendRound(nowNs);
        observation.suspicionDeadline(nowNs + probeTimeoutNs);
    }

    /**
     * @return distance of the nearest predecessor that answered: the run is the live ranks closer than it (all of them
     * while nobody answered).
     */
    private int runEnd()
    {
        return runAnswerDistance == NO_ANSWER ? clusterSize : runAnswerDistance;
    }

    /**
     * Everyone was asked, δ went by and no majority answered: before stopping, ask once more every rank held alive
     * that has not answered and is not in the run (the run is asked again anyway), and decide a probe timeout later.
     * Probes sent while a cut lasted are lost; when it heals before the silence is confirmed, these are the answers
     * that show this node is not cut off. Without them, a node that asked everyone during a cut of under 2δ stopped
     * as a minority after it had healed, and its minority notice stopped the others. Once per session, and only on
     * the way to stopping: a node re-asking N ranks again and again queues its own probes on a one-port network.
     */
    private void askUnansweredBeyondRun()
    {
        for (int r = 0; r < clusterSize; r++)
        {
            if (r != rank && !dead.contains(r) && !tally.answeredInSession(r) && ring.distance(r) >= runEnd())
            {
                probe(r, runToken);
            }
        }
    }

    private void startConfirming(final long nowNs, final long confirmAtNs)
    {
        final long earliestNs = evidenceSinceNs == NOT_YET ? confirmAtNs : evidenceSinceNs + heartbeatPeriodNs;
        runConfirmAtNs = earliestNs - confirmAtNs > 0 ? earliestNs : confirmAtNs;
        runReprobeNs = nowNs + reprobeIntervalNs();
        observation.suspicionDeadline(nowNs);
    }

    private void sendRound(final long nowNs)
    {
        roundFirstDistance[runRounds] = ring.distance(runCursor);
        roundSentNs[runRounds] = nowNs;
        runRounds++;
        for (int i = 0; i < runBatch && !runExhausted; i++)
        {
            // a witness was asked when probing began; asked again here, its answer places the run's end
            probe(runCursor, runToken);
            runFarthestDistance = ring.distance(runCursor);
            runCursor = ring.previousAlive(runCursor);
            runExhausted = runCursor == rank;
        }
        runBatch = runRounds + 1 >= MAX_PROBE_ROUNDS ? clusterSize : Math.min(clusterSize, 2 * runBatch);
    }

    /**
     * Everyone was asked, δ ago, and fewer than a majority of M answered: stop without declaring anyone, telling
     * this side first (if anyone answered) with a minority notice naming the run it could not hear.
     */
    private int stopUncounted()
    {
        runRounds = 0;
        return verdict.stop(runEnd(), tally.anyAnswered());
    }

    /**
     * Probing ended: the run is what stayed silent before the nearest predecessor that answered (all others if none
     * did). Declare it if a majority is left, else stop: this node's side is the minority, or this node is deaf.
     */
    private int resolve(final long nowNs)
    {
        final int emitter = observation.emitter();
        final int endDistance = runEnd();
        quorum.settleIfDue(dead, nowNs);
        int runLength = 0;
        int runMembers = 0;
        boolean lowestInRun = false;
        boolean joinerInRun = false;
        final int lowest = quorum.lowestMember();
        for (int r = emitter; r != rank && ring.distance(r) < endDistance; r = ring.previousAlive(r))
        {
            runLength++;
            lowestInRun |= r == lowest;
            if (quorum.isOutside(r))
            {
                joinerInRun = true;
            }
            else
            {
                runMembers++;
            }
        }
        // M's members alone count, as Quorum says: counting ranks admitted since M settled as alive let the side that
        // held two fresh joiners outnumber an M they were no part of, and both halves of a 4:4 split declared
        final int aliveMembers = quorum.aliveMembers(dead) - runMembers;
        // heard nobody, and a majority only because ranks admitted since M settled do not count: that M cannot tell
        // this node's deafness from their deaths (a re-formed leader is M alone, and declared all it had admitted)
        final boolean majorityLeft = quorum.holds(aliveMembers, !lowestInRun && !dead.contains(lowest)) &&
            (tally.anyAnswered() || !joinerInRun || staleCount);
        if (majorityLeft && !rechecking() && recheckOn && (runLength > 1 || !tally.allWitnessesAnswered()))
        {
            runToken = prober.nextToken();
            recheck.start(nowNs, runToken, endDistance);
            return RunVerdict.UNDECIDED;
        }
        runRounds = 0;
        if (majorityLeft)
        {
            // declared without every witness answering: a cut may have swallowed parts of this broadcast
            return verdict.declare(endDistance, runLength, !tally.allWitnessesAnswered());
        }
        return verdict.stop(endDistance, runAnswerDistance != NO_ANSWER);
    }
}
