package io.ringwatch.perf.nemesis;

import io.ringwatch.core.protocol.Theorem1;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.transport.aeron.view.JournalEntry;
import io.ringwatch.transport.aeron.view.JournalLayout;
import io.ringwatch.transport.aeron.view.JournalLayout.Event;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Judges a {@link NemesisHistory} against what the nemesis did. Pure: no clock, no I/O. The checks:
 * <ol>
 *     <li><b>Split brain</b>: never two admitted, running nodes each holding the other dead.</li>
 *     <li><b>Exclusions</b>: each death verdict (the first record of a rank's incarnation in some dead set) and each
 *     node that stopped itself is classified: {@code CRASHED} (its process had ended, or its driver was killed),
 *     {@code PAUSED} (SIGSTOPped for δ or longer), {@code CUT_OFF} (its host cut off or deaf for δ or longer),
 *     {@code MINORITY} (on the side of a split that must stop, or too few nodes running), else {@code FALSE}, which
 *     fails the run.</li>
 *     <li><b>Detection</b>: every crash (SIGKILL, or a stop on driver loss) of an admitted node is learned by every
 *     node admitted then and still admitted at the bound, within Theorem 1's T(f) + slack, f the crashes overlapping
 *     it, τ = η/3 (the model's η ≥ 3τ); when the theorem does not apply (f too large, or another fault in force) it
 *     must still be learned before the run ends or the survivor stops.</li>
 *     <li><b>Re-admission</b>: after the last heal the whole cluster is admitted everywhere within the stated bound;
 *     each rank's incarnations grow from one process to the next, and no node sees a rank's incarnation go back.</li>
 *     <li><b>Deaths</b>: every process ended by the nemesis's SIGKILL, a documented stop (exit 3 after its own
 *     exclusion, exit 4 after its driver was killed), or the end of the run; no exception in any log; no driver died
 *     unless the nemesis killed it.</li>
 * </ol>
 */
public final class HistoryChecker
{
    /**
     * How an exclusion is explained by what the nemesis did.
     */
    public enum ExclusionClass
    {
        /** The process had ended (killed, or stopped on its driver's loss). */
        CRASHED,
        /** SIGSTOPped for δ or longer. */
        PAUSED,
        /** Its host cut off or deaf for δ or longer. */
        CUT_OFF,
        /** On the side of a split that must stop, or too few nodes ran for a majority. */
        MINORITY,
        /** Nothing the nemesis did explains it. */
        FALSE
    }

    /**
     * One exclusion, classified.
     *
     * @param selfStop    true for a node that stopped itself, false for a verdict of others.
     * @param rank        the rank excluded.
     * @param incarnation its incarnation in the record.
     * @param atNs        the first record of it.
     * @param by          the node whose journal holds that record.
     * @param cause       the record's cause.
     * @param cls         its class.
     * @param why         the fault or end that explains it, or what was in force.
     */
    public record Exclusion(boolean selfStop, int rank, long incarnation, long atNs, int by, String cause,
        ExclusionClass cls, String why)
    {
    }

    /**
     * Two nodes that held each other dead while both ran admitted.
     *
     * @param a       one rank.
     * @param b       the other.
     * @param atNs    from.
     * @param untilNs to.
     */
    public record SplitBrain(int a, int b, long atNs, long untilNs)
    {
    }

    /**
     * One crash of an admitted node and how long the survivors took to learn it.
     *
     * @param rank     the crashed rank.
     * @param crashNs  when it crashed.
     * @param failures f, the crashes overlapping it (itself included).
     * @param boundNs  T(f) + slack, or -1 where the theorem does not apply.
     * @param why      why it does not, or "".
     * @param learnNs  the slowest survivor's time to learn it; -1 if one never did.
     * @param missedBy survivors that did not learn it in time (or never).
     */
    public record Detection(int rank, long crashNs, int failures, long boundNs, String why, long learnNs,
        List<Integer> missedBy)
    {
    }

    /**
     * What the checker found.
     *
     * @param faultsByKind      faults injected, by kind.
     * @param exclusions        every exclusion, classified.
     * @param splitBrains       every split brain.
     * @param detections        every crash of an admitted node.
     * @param readmitNs         from the last heal to the cluster admitted everywhere, -1 if never.
     * @param readmitBoundNs    the bound it was held to.
     * @param failures          one line per failed check; empty when the run passed.
     */
    public record Result(Map<FaultKind, Integer> faultsByKind, List<Exclusion> exclusions,
        List<SplitBrain> splitBrains, List<Detection> detections, long readmitNs, long readmitBoundNs,
        List<String> failures)
    {
        /**
         * @return true if every check passed.
         */
        public boolean passed()
        {
            return failures.isEmpty();
        }

        /**
         * @param more failures found outside the history, e.g. by the harness itself.
         * @return this result with them added.
         */
        public Result withFailures(final List<String> more)
        {
            if (more.isEmpty())
            {
                return this;
            }
            final List<String> all = new ArrayList<>(failures);
            all.addAll(more);
            return new Result(faultsByKind, exclusions, splitBrains, detections, readmitNs, readmitBoundNs,
                List.copyOf(all));
        }

        /**
         * @param cls a class.
         * @return how many exclusions have it.
         */
        public long count(final ExclusionClass cls)
        {
            return exclusions.stream().filter(e -> e.cls() == cls).count();
        }

        /**
         * @return crashes not learned within their bound, or never.
         */
        public long missedDetections()
        {
            return detections.stream().filter(d -> !d.missedBy().isEmpty()).count();
        }
    }

    private final long slackNs;
    private final long readmitBoundNs;

    /**
     * @param slackNs        added to Theorem 1's T(f) for a live run: duty-cycle lateness and scheduling on a loaded
     *                       host, and the gap between the nemesis's signal and the victim's last beat.
     * @param readmitBoundNs how long after the last heal the cluster may take to be admitted everywhere.
     */
    public HistoryChecker(final long slackNs, final long readmitBoundNs)
    {
        this.slackNs = slackNs;
        this.readmitBoundNs = readmitBoundNs;
    }

    /**
     * @param history what happened.
     * @return the verdicts.
     */
    public Result check(final NemesisHistory history)
    {
        return new Run(history).check();
    }

    /**
     * One node process with its own journal records, in time order.
     */
    private static final class NodeLife
    {
        final Life life;
        final List<JournalEntry> records = new ArrayList<>();
        long incarnation = -1;
        boolean joining;
        long activeFromNs = Long.MAX_VALUE;
        long excludedNs = Long.MAX_VALUE;
        ExclusionCause exclusion;

        NodeLife(final Life life)
        {
            this.life = life;
        }

        long activeUntilNs()
        {
            return Math.min(excludedNs, life.endNs());
        }

        boolean admittedAt(final long atNs)
        {
            return activeFromNs <= atNs && atNs < activeUntilNs();
        }
    }

    private final class Run
    {
        final NemesisHistory h;
        final int n;
        final long deltaNs;
        final long tauNs;
        final long windowNs;
        final List<NodeLife> lives = new ArrayList<>();
        final Map<Integer, List<NodeLife>> livesOfRank = new HashMap<>();
        final List<String> failures = new ArrayList<>();
        final List<Exclusion> exclusions = new ArrayList<>();
        final Map<NodeLife, Exclusion> selfStops = new HashMap<>();

        Run(final NemesisHistory history)
        {
            this.h = history;
            this.n = history.clusterSize();
            this.deltaNs = history.deltaNs();
            this.tauNs = history.etaNs() / 3;
            // the longest stabilization the theorem gives this cluster: how long after a fault its verdicts may come
            this.windowNs = Theorem1.boundNs(Math.max(1, Theorem1.maxTolerated(n)), n, deltaNs, tauNs) + slackNs;
            final Map<Long, NodeLife> byPid = new HashMap<>();
            final List<Life> sorted = new ArrayList<>(history.lives());
            sorted.sort(Comparator.comparingLong(Life::startNs));
            for (final Life life : sorted)
            {
                final NodeLife nodeLife = new NodeLife(life);
                lives.add(nodeLife);
                livesOfRank.computeIfAbsent(life.rank(), r -> new ArrayList<>()).add(nodeLife);
                byPid.put(life.pid() * 1_000_003L + life.rank(), nodeLife);
            }
            final List<JournalEntry> journal = new ArrayList<>(history.journal());
            journal.sort(JournalEntry.TIME_ORDER);
            for (final JournalEntry e : journal)
            {
                final NodeLife life = byPid.get(e.pid() * 1_000_003L + e.node());
                // once stopped, what a node still records (its stop) says nothing about the others
                if (life == null || e.monoNs() > history.endNs() || e.monoNs() > life.excludedNs)
                {
                    continue;
                }
                life.records.add(e);
                final boolean own = e.rank() == e.node();
                switch (e.event())
                {
                    case STARTED:
                        life.incarnation = e.incarnation();
                        if (e.cause() == JournalLayout.STARTED_AS_SEED)
                        {
                            life.activeFromNs = Math.min(life.activeFromNs, e.monoNs());
                        }
                        break;
                    case JOINING:
                        life.incarnation = e.incarnation();
                        life.joining = true;
                        life.activeFromNs = Long.MAX_VALUE;
                        break;
                    case JOINED:
                        if (own && life.activeFromNs == Long.MAX_VALUE)
                        {
                            life.activeFromNs = e.monoNs();
                            life.incarnation = e.incarnation();
                        }
                        break;
                    case EXCLUDED:
                        if (life.excludedNs == Long.MAX_VALUE)
                        {
                            life.excludedNs = e.monoNs();
                            life.exclusion = ExclusionCause.ofCode(e.cause());
                        }
                        break;
                    default:
                        break;
                }
            }
        }

        Result check()
        {
            final Map<FaultKind, Integer> byKind = new EnumMap<>(FaultKind.class);
            h.faults().forEach(f -> byKind.merge(f.kind(), 1, Integer::sum));
            classifySelfStops();
            classifyVerdicts();
            final List<SplitBrain> splitBrains = splitBrains();
            splitBrains.forEach(s -> failures.add("split brain: ranks " + s.a() + " and " + s.b() + " held each " +
                "other dead while both ran admitted, for " + ms(s.untilNs() - s.atNs()) + " ms from " + at(s.atNs())));
            exclusions.stream().filter(e -> e.cls() == ExclusionClass.FALSE).forEach(e -> failures.add(
                "false exclusion: " + describe(e)));
            final List<Detection> detections = detections();
            for (final Detection d : detections)
            {
                if (!d.missedBy().isEmpty())
                {
                    failures.add("missed detection: crash of rank " + d.rank() + " at " + at(d.crashNs()) +
                        " not learned by " + d.missedBy() + (d.boundNs() < 0 ? " before they stopped or the run " +
                        "ended (" + d.why() + ")" : " within T(" + d.failures() + ") + slack = " +
                        ms(d.boundNs()) + " ms"));
                }
            }
            final long readmitNs = h.admittedNs() < 0 ? -1 : h.admittedNs() - h.healedNs();
            if (readmitNs < 0)
            {
                failures.add("not re-admitted: after the last heal at " + at(h.healedNs()) + " the cluster was " +
                    "never admitted everywhere; final views:" + h.finalViews());
            }
            else if (readmitNs > readmitBoundNs)
            {
                failures.add("slow re-admission: " + ms(readmitNs) + " ms after the last heal, bound " +
                    ms(readmitBoundNs) + " ms");
            }
            checkIncarnations();
            checkDeaths();
            return new Result(byKind, exclusions, splitBrains, detections, readmitNs, readmitBoundNs, failures);
        }

        private void classifySelfStops()
        {
            for (final NodeLife life : lives)
            {
                if (life.exclusion == null || life.excludedNs > h.endNs())
                {
                    continue;
                }
                final long t = life.excludedNs;
                final int rank = life.life.rank();
                final ExclusionClass cls;
                final String why;
                switch (life.exclusion)
                {
                    case DRIVER_LOST:
                    {
                        final Fault kill = find(FaultKind.KILL_DRIVER, f -> f.onHost(h.hostOf()[rank]) &&
                            f.startNs() <= t && t - f.startNs() <= windowNs + DRIVER_NOTICE_NS);
                        cls = kill == null ? ExclusionClass.FALSE : ExclusionClass.CRASHED;
                        why = kill == null ? "no driver kill on host " + h.hostOf()[rank] : kill.toString();
                        break;
                    }
                    case MINORITY:
                    case ISOLATED:
                    {
                        final String explained = networkOrPause(rank, t, life.life.startNs());
                        if (explained != null)
                        {
                            cls = explained.startsWith("pause") ? ExclusionClass.PAUSED : explained.contains("split") ?
                                ExclusionClass.MINORITY : ExclusionClass.CUT_OFF;
                            why = explained;
                        }
                        else if (runningAdmitted(t - windowNs) * 2 <= n || runningAdmitted(t) * 2 <= n)
                        {
                            cls = ExclusionClass.MINORITY;
                            why = "too few nodes running admitted for a majority";
                        }
                        else
                        {
                            cls = ExclusionClass.FALSE;
                            why = inForce(t);
                        }
                        break;
                    }
                    case FENCED:
                    case NOTICE:
                        // the consequence of a verdict of others: judged with that verdict
                        continue;
                    default:
                        cls = ExclusionClass.FALSE;
                        why = "stopped as " + life.exclusion + " though the nemesis never asked it to";
                        break;
                }
                final Exclusion e = new Exclusion(true, rank, life.incarnation, t, rank, life.exclusion.name(), cls,
                    why);
                selfStops.put(life, e);
                exclusions.add(e);
            }
        }

        private void classifyVerdicts()
        {
            // the first record of each rank's incarnation in anyone's dead set is the verdict; the rest spread it
            final Map<Map.Entry<Integer, Long>, JournalEntry> first = new TreeMap<>(
                Map.Entry.<Integer, Long>comparingByKey().thenComparing(Map.Entry.comparingByValue()));
            for (final NodeLife life : lives)
            {
                for (final JournalEntry e : life.records)
                {
                    if (e.event() == Event.DEAD && e.rank() != e.node())
                    {
                        first.merge(Map.entry(e.rank(), e.incarnation()), e,
                            (a, b) -> a.monoNs() <= b.monoNs() ? a : b);
                    }
                }
            }
            for (final JournalEntry e : first.values())
            {
                final long t = e.monoNs();
                final NodeLife victim = lifeOf(e.rank(), e.incarnation(), t);
                final Fault killed = victim == null ? null : startedBy(killOf(victim.life), t);
                final Fault driverKilled = victim == null ? null : startedBy(driverKillOf(victim.life), t);
                ExclusionClass cls;
                String why;
                if (victim == null)
                {
                    cls = ExclusionClass.CRASHED;
                    why = "no process of rank " + e.rank() + " had started";
                }
                else if (victim.life.endNs() <= t)
                {
                    cls = ExclusionClass.CRASHED;
                    why = "process " + victim.life.pid() + " ended " + ms(t - victim.life.endNs()) + " ms before " +
                        "(exit " + victim.life.exitCode() + ")";
                }
                else if (killed != null)
                {
                    // the supervisor sees the exit later than the signal lands: at load 38 up to 0.45 s later
                    cls = ExclusionClass.CRASHED;
                    why = "process " + victim.life.pid() + " SIGKILLed by " + killed + " " +
                        ms(t - killed.startNs()) + " ms before";
                }
                else if (driverKilled != null)
                {
                    // a node whose driver died sends nothing more: it stops on its own, DRIVER_LOST, once it notices
                    cls = ExclusionClass.CRASHED;
                    why = "its host's driver was SIGKILLed by " + driverKilled + " " +
                        ms(t - driverKilled.startNs()) + " ms before";
                }
                else if (victim.incarnation > e.incarnation())
                {
                    // no process ran under the declared incarnation: an earlier life (0 is a seed's boot life nobody
                    // heard), which its contact declares when the rank joins again; the running life is untouched
                    cls = ExclusionClass.CRASHED;
                    why = "an earlier life than process " + victim.life.pid() + " (incarnation " +
                        victim.incarnation + ")";
                }
                else if (victim.excludedNs <= t && selfStops.containsKey(victim))
                {
                    final Exclusion stop = selfStops.get(victim);
                    cls = stop.cls();
                    why = "it had stopped itself (" + stop.cause() + ", " + stop.why() + ")";
                }
                else if (victim.excludedNs <= t)
                {
                    // declared dead before by another record of the same life under another incarnation number
                    cls = ExclusionClass.CRASHED;
                    why = "it had stopped taking part (" + victim.exclusion + ")";
                }
                else
                {
                    final String explained = networkOrPause(e.rank(), t, Long.MAX_VALUE);
                    if (explained != null)
                    {
                        cls = explained.startsWith("pause") ? ExclusionClass.PAUSED : explained.contains("split") ?
                            ExclusionClass.MINORITY : ExclusionClass.CUT_OFF;
                        why = explained;
                    }
                    else
                    {
                        cls = ExclusionClass.FALSE;
                        why = "running, reachable and not paused; " + inForce(t);
                    }
                }
                exclusions.add(new Exclusion(false, e.rank(), e.incarnation(), t, e.node(),
                    e.causeName() + " by " + e.reporter(), cls, why));
            }
            exclusions.sort(Comparator.comparingLong(Exclusion::atNs));
        }

        /**
         * @return the fault that cut the rank's host off, split it into the side that must stop, or paused it for δ
         * or longer around {@code t}, described; null if none. A process started while such a fault was in force
         * (a restarted joiner that cannot reach anyone) counts too.
         */
        private String networkOrPause(final int rank, final long t, final long lifeStartNs)
        {
            final int host = h.hostOf()[rank];
            // a fault in force at t (or just undone) first; then one that was in force when this process started
            for (int pass = 0; pass < 2; pass++)
            {
                for (final Fault f : h.faults())
                {
                    if (f.durationNs() < deltaNs || f.startNs() > t)
                    {
                        continue;
                    }
                    final boolean atT = t <= f.endNs() + windowNs;
                    final boolean pause = f.kind() == FaultKind.PAUSE_LONG || f.kind() == FaultKind.PAUSE_SHORT;
                    if (pause && f.onRank(rank) && atT && pass == 0)
                    {
                        return "pause " + f;
                    }
                    final boolean atStart = lifeStartNs <= f.endNs() + windowNs;
                    if (!pause && f.kind().scope() == FaultKind.Scope.NETWORK && cutOff(f, host) &&
                        (pass == 0 ? atT : atStart))
                    {
                        return f.toString();
                    }
                }
            }
            return null;
        }

        /**
         * @return whether the fault leaves the host on a side that may stop: for a cut (the host cut off against the
         * rest), a split or a deaf host, the side with fewer nodes admitted at its start, on a tie the side without the
         * lowest admitted rank, and either side when the membership was changing around it (a node killed within
         * T + slack of the fault, or started or admitted just before it), as the majority rule counts the membership
         * it holds then. A deaf side that holds the majority declares the side it cannot hear, which hears it and
         * stops on the notice: it cannot tell a deaf ear from a cut, and a rule that let the hearing side win would
         * split the brain whenever the cut is both ways (see docs/partitions.md).
         */
        private boolean cutOff(final Fault f, final int host)
        {
            final boolean deaf = f.kind() == FaultKind.DEAF;
            final boolean cut = f.kind() == FaultKind.CUT_SHORT || f.kind() == FaultKind.CUT_LONG;
            if ((deaf || cut) && f.onHost(host))
            {
                // a host cut off, or deaf, may stop whatever it holds: the ear check stops a node that hears too few
                return true;
            }
            // and a host cut off is one side of a split, the rest the other: with few ranks admitted it may hold the
            // majority, or half of M with the lowest rank, and then the rest must stop (nemesis run 5, mono 51370.6)
            final long s = f.startNs();
            for (final Fault other : h.faults())
            {
                final boolean crash = other.kind() == FaultKind.KILL || other.kind() == FaultKind.RESTART_STORM ||
                    other.kind() == FaultKind.KILL_DRIVER;
                if (crash && Math.abs(other.startNs() - s) <= windowNs)
                {
                    return true;
                }
            }
            int a = 0;
            int b = 0;
            int lowestA = Integer.MAX_VALUE;
            int lowestB = Integer.MAX_VALUE;
            for (final NodeLife life : lives)
            {
                if (life.life.startNs() > s - windowNs && life.life.startNs() <= s ||
                    life.activeFromNs > s - windowNs && life.activeFromNs <= s)
                {
                    return true;
                }
                if (life.admittedAt(s))
                {
                    final int rank = life.life.rank();
                    if (f.onHost(h.hostOf()[rank]))
                    {
                        a++;
                        lowestA = Math.min(lowestA, rank);
                    }
                    else
                    {
                        b++;
                        lowestB = Math.min(lowestB, rank);
                    }
                }
            }
            final boolean sideAStops = a != b ? a < b : lowestA > lowestB;
            return f.onHost(host) == sideAStops;
        }

        private String inForce(final long t)
        {
            final StringBuilder sb = new StringBuilder("in force:");
            for (final Fault f : h.faults())
            {
                if (f.overlaps(t - windowNs, t))
                {
                    sb.append(' ').append(f).append(';');
                }
            }
            return sb.length() == "in force:".length() ? "no fault in force" : sb.toString();
        }

        private int runningAdmitted(final long t)
        {
            int count = 0;
            for (final NodeLife life : lives)
            {
                if (life.admittedAt(t))
                {
                    count++;
                }
            }
            return count;
        }

        private NodeLife lifeOf(final int rank, final long incarnation, final long t)
        {
            final List<NodeLife> ofRank = livesOfRank.getOrDefault(rank, List.of());
            for (final NodeLife life : ofRank)
            {
                if (life.incarnation == incarnation && life.life.startNs() <= t)
                {
                    return life;
                }
            }
            NodeLife latest = null;
            for (final NodeLife life : ofRank)
            {
                if (life.life.startNs() <= t)
                {
                    latest = life;
                }
            }
            return latest;
        }

        private List<SplitBrain> splitBrains()
        {
            // sweep every change of who runs admitted and who holds whom dead, in time order
            final List<long[]> changes = new ArrayList<>();
            for (int i = 0; i < lives.size(); i++)
            {
                final NodeLife life = lives.get(i);
                for (int j = 0; j < life.records.size(); j++)
                {
                    changes.add(new long[]{life.records.get(j).monoNs(), i, j});
                }
                if (life.activeFromNs != Long.MAX_VALUE)
                {
                    changes.add(new long[]{life.activeFromNs, i, -1});
                    changes.add(new long[]{Math.min(life.activeUntilNs(), h.endNs()), i, -1});
                }
            }
            changes.sort(Comparator.comparingLong(c -> c[0]));
            final BitSet[] dead = new BitSet[lives.size()];
            for (int i = 0; i < dead.length; i++)
            {
                dead[i] = new BitSet(n);
            }
            final List<SplitBrain> found = new ArrayList<>();
            final Map<Long, Long> open = new HashMap<>();
            int k = 0;
            while (k < changes.size())
            {
                final long t = changes.get(k)[0];
                if (t > h.endNs())
                {
                    break;
                }
                for (; k < changes.size() && changes.get(k)[0] == t; k++)
                {
                    final long[] c = changes.get(k);
                    if (c[2] >= 0)
                    {
                        final JournalEntry e = lives.get((int)c[1]).records.get((int)c[2]);
                        if (e.event() == Event.DEAD)
                        {
                            dead[(int)c[1]].set(e.rank());
                        }
                        else if (e.event() == Event.JOINED)
                        {
                            dead[(int)c[1]].clear(e.rank());
                        }
                    }
                }
                final Map<Long, Long> still = new HashMap<>();
                final List<Integer> admitted = new ArrayList<>();
                for (int i = 0; i < lives.size(); i++)
                {
                    if (lives.get(i).admittedAt(t))
                    {
                        admitted.add(i);
                    }
                }
                for (int x = 0; x < admitted.size(); x++)
                {
                    final int a = admitted.get(x);
                    for (int y = x + 1; y < admitted.size(); y++)
                    {
                        final int b = admitted.get(y);
                        final int ra = lives.get(a).life.rank();
                        final int rb = lives.get(b).life.rank();
                        if (ra != rb && dead[a].get(rb) && dead[b].get(ra))
                        {
                            final long key = (long)a << 32 | b;
                            still.put(key, open.getOrDefault(key, t));
                        }
                    }
                }
                for (final Map.Entry<Long, Long> o : open.entrySet())
                {
                    if (!still.containsKey(o.getKey()))
                    {
                        found.add(new SplitBrain(lives.get((int)(o.getKey() >>> 32)).life.rank(),
                            lives.get((int)(o.getKey() & 0xffffffffL)).life.rank(), o.getValue(), t));
                    }
                }
                open.clear();
                open.putAll(still);
            }
            for (final Map.Entry<Long, Long> o : open.entrySet())
            {
                found.add(new SplitBrain(lives.get((int)(o.getKey() >>> 32)).life.rank(),
                    lives.get((int)(o.getKey() & 0xffffffffL)).life.rank(), o.getValue(), h.endNs()));
            }
            return found;
        }

        private List<Detection> detections()
        {
            // crashes of admitted nodes: the nemesis's SIGKILL, or a stop on the loss of a killed driver
            final List<long[]> crashes = new ArrayList<>();
            for (int i = 0; i < lives.size(); i++)
            {
                final NodeLife life = lives.get(i);
                final long crashNs;
                if (life.life.exitCode() == Life.SIGKILLED)
                {
                    final Fault kill = killOf(life.life);
                    if (kill == null)
                    {
                        continue;
                    }
                    crashNs = kill.startNs();
                }
                else if (life.exclusion == ExclusionCause.DRIVER_LOST)
                {
                    crashNs = life.excludedNs;
                }
                else
                {
                    continue;
                }
                final boolean admitted = life.activeFromNs <= crashNs &&
                    (life.exclusion == ExclusionCause.DRIVER_LOST ? life.excludedNs >= crashNs :
                    life.excludedNs > crashNs);
                if (admitted && crashNs <= h.endNs())
                {
                    crashes.add(new long[]{crashNs, i});
                }
            }
            final long oneNs = Theorem1.boundNs(1, n, deltaNs, tauNs);
            final List<Detection> detections = new ArrayList<>();
            for (final long[] crash : crashes)
            {
                final long c = crash[0];
                final NodeLife victim = lives.get((int)crash[1]);
                final int rank = victim.life.rank();
                int f = 0;
                for (final long[] other : crashes)
                {
                    if (Math.abs(other[0] - c) <= oneNs + slackNs)
                    {
                        f++;
                    }
                }
                String why = "";
                if (!Theorem1.applies(f, n))
                {
                    why = f + " overlapping crashes, more than the theorem's " + Theorem1.maxTolerated(n);
                }
                final long boundNs = why.isEmpty() ? Theorem1.boundNs(f, n, deltaNs, tauNs) + slackNs : -1;
                if (why.isEmpty())
                {
                    for (final Fault fault : h.faults())
                    {
                        final boolean crashFault = fault.kind() == FaultKind.KILL ||
                            fault.kind() == FaultKind.RESTART_STORM || fault.kind() == FaultKind.KILL_DRIVER;
                        if (!crashFault && fault.overlaps(c - deltaNs, c + boundNs))
                        {
                            why = "bound does not apply: " + fault + " in force";
                            break;
                        }
                    }
                }
                final long applied = why.isEmpty() ? boundNs : -1;
                long worst = 0;
                int counted = 0;
                final List<Integer> missedBy = new ArrayList<>();
                for (final NodeLife survivor : lives)
                {
                    if (survivor.life.rank() == rank || !survivor.admittedAt(c))
                    {
                        continue;
                    }
                    final long hearsUntilNs = hearsUntilNs(survivor);
                    final long horizon = applied >= 0 ? c + applied : Math.min(hearsUntilNs, h.endNs());
                    if (applied >= 0 && (!survivor.admittedAt(horizon) || hearsUntilNs < horizon))
                    {
                        // run 5, mono 50077.3: rank 6 killed, host 1's driver killed 252 ms later, before the notice
                        continue;
                    }
                    final long learnt = learnt(survivor, rank, victim.incarnation, c);
                    if (learnt == c)
                    {
                        // it held the rank dead already (a verdict for a pause or cut before the kill): no detection
                        continue;
                    }
                    counted++;
                    if (learnt < 0 || learnt > horizon)
                    {
                        // without a bound only a survivor that ran admitted to the end must have learnt it
                        if (applied >= 0 || hearsUntilNs >= h.endNs())
                        {
                            missedBy.add(survivor.life.rank());
                        }
                    }
                    else
                    {
                        worst = Math.max(worst, learnt - c);
                    }
                }
                if (counted > 0)
                {
                    detections.add(new Detection(rank, c, f, applied, why, missedBy.isEmpty() ? worst : -1,
                        missedBy));
                }
            }
            return detections;
        }

        /**
         * @return when the survivor learned that the rank's life ended (its death, or a later incarnation admitted),
         * at {@code c} if it held it dead already; -1 if never.
         */
        private long learnt(final NodeLife survivor, final int rank, final long incarnation, final long c)
        {
            boolean deadBefore = false;
            for (final JournalEntry e : survivor.records)
            {
                if (e.rank() != rank || e.rank() == e.node())
                {
                    continue;
                }
                if (e.monoNs() <= c)
                {
                    deadBefore = e.event() == Event.DEAD || deadBefore && e.event() != Event.JOINED;
                }
                else if (e.event() == Event.DEAD || e.event() == Event.JOINED && e.incarnation() > incarnation)
                {
                    return deadBefore ? c : e.monoNs();
                }
            }
            return deadBefore ? c : -1;
        }

        // the fault if it had begun by t, else null
        private static Fault startedBy(final Fault fault, final long t)
        {
            return fault != null && fault.startNs() <= t ? fault : null;
        }

        // the first kill of its host's driver while the process ran: from then on it sends and hears nothing
        private Fault driverKillOf(final Life life)
        {
            final int host = h.hostOf()[life.rank()];
            return find(FaultKind.KILL_DRIVER, f -> f.onHost(host) && f.startNs() >= life.startNs() &&
                f.startNs() < life.endNs());
        }

        /**
         * @return until when the node could hear a notice: its exclusion, its exit, or the SIGKILL of it or of its
         * host's driver, whichever came first (the supervisor sees an exit late, and a node notices its driver's loss
         * only after the driver timeout).
         */
        private long hearsUntilNs(final NodeLife life)
        {
            long end = life.activeUntilNs();
            final Fault kill = killOf(life.life);
            if (kill != null)
            {
                end = Math.min(end, kill.startNs());
            }
            final Fault driverKill = driverKillOf(life.life);
            if (driverKill != null)
            {
                end = Math.min(end, driverKill.startNs());
            }
            return end;
        }

        private Fault killOf(final Life life)
        {
            return find(null, f -> (f.kind() == FaultKind.KILL || f.kind() == FaultKind.RESTART_STORM) &&
                f.onRank(life.rank()) && f.startNs() >= life.startNs() && f.startNs() <= life.endNs() &&
                life.endNs() - f.startNs() <= KILL_EXIT_NS);
        }

        private Fault find(final FaultKind kind, final Predicate<Fault> test)
        {
            for (final Fault f : h.faults())
            {
                if ((kind == null || f.kind() == kind) && test.test(f))
                {
                    return f;
                }
            }
            return null;
        }

        private void checkIncarnations()
        {
            for (final Map.Entry<Integer, List<NodeLife>> ofRank : livesOfRank.entrySet())
            {
                long last = Long.MIN_VALUE;
                for (final NodeLife life : ofRank.getValue())
                {
                    if (life.incarnation < 0 || life.records.isEmpty())
                    {
                        continue;
                    }
                    if (life.incarnation <= last && life.joining)
                    {
                        failures.add("incarnation went back: rank " + ofRank.getKey() + " process " + life.life.pid() +
                            " joined under " + life.incarnation + " after an earlier process had " + last);
                    }
                    last = Math.max(last, life.incarnation);
                }
            }
            for (final NodeLife life : lives)
            {
                final Map<Integer, Long> seen = new HashMap<>();
                for (final JournalEntry e : life.records)
                {
                    if (e.event() == Event.JOINED && e.rank() != e.node())
                    {
                        final Long before = seen.put(e.rank(), e.incarnation());
                        if (before != null && e.incarnation() < before)
                        {
                            failures.add("incarnation went back: node " + e.node() + " (pid " + e.pid() + ") admitted " +
                                "rank " + e.rank() + " under " + e.incarnation() + " after " + before);
                        }
                    }
                }
            }
        }

        private void checkDeaths()
        {
            for (final NodeLife life : lives)
            {
                final Life l = life.life;
                if (!l.log().isEmpty())
                {
                    failures.add("rank " + l.rank() + " pid " + l.pid() + " logged: " + l.log());
                }
                if (l.running() || l.endNs() > h.endNs())
                {
                    continue;
                }
                final int host = h.hostOf()[l.rank()];
                final boolean ok;
                switch (l.exitCode())
                {
                    case Life.SIGKILLED:
                        ok = killOf(l) != null;
                        break;
                    case 3:
                        // a documented stop: fenced, minority, isolated; whether it was justified is judged above
                        ok = true;
                        break;
                    case 4:
                        ok = find(FaultKind.KILL_DRIVER, f -> f.onHost(host) && f.startNs() <= l.endNs() &&
                            l.endNs() - f.startNs() <= windowNs + DRIVER_NOTICE_NS) != null;
                        break;
                    case 2:
                        // a start that failed for a reason that passes: its driver killed while it started, or its
                        // control port still held by the driver for the life killed just before
                        ok = find(FaultKind.KILL_DRIVER, f -> f.onHost(host) && f.startNs() <= l.endNs() &&
                            f.startNs() >= l.startNs() - PORT_HELD_NS) != null ||
                            find(null, f -> (f.kind() == FaultKind.KILL || f.kind() == FaultKind.RESTART_STORM) &&
                            f.onRank(l.rank()) && f.startNs() <= l.startNs() &&
                            l.startNs() - f.startNs() <= PORT_HELD_NS) != null;
                        break;
                    default:
                        ok = false;
                        break;
                }
                if (!ok)
                {
                    failures.add("rank " + l.rank() + " pid " + l.pid() + " died of exit " + l.exitCode() +
                        " at " + at(l.endNs()) + ", which the nemesis did not cause" + (life.exclusion == null ? "" :
                        " (it had stopped as " + life.exclusion + ")"));
                }
            }
            for (final Life d : h.drivers())
            {
                if (!d.log().isEmpty())
                {
                    failures.add("driver of host " + d.rank() + " pid " + d.pid() + " logged: " + d.log());
                }
                if (d.running() || d.endNs() > h.endNs())
                {
                    continue;
                }
                if (find(FaultKind.KILL_DRIVER, f -> f.onHost(d.rank()) && f.startNs() <= d.endNs() &&
                    d.endNs() - f.startNs() <= KILL_EXIT_NS) == null)
                {
                    failures.add("driver of host " + d.rank() + " pid " + d.pid() + " died of exit " + d.exitCode() +
                        " at " + at(d.endNs()) + ", which the nemesis did not cause");
                }
            }
        }

        private String describe(final Exclusion e)
        {
            return (e.selfStop() ? "rank " + e.rank() + " stopped itself (" + e.cause() + ")" :
                "rank " + e.rank() + " incarnation " + e.incarnation() + " declared dead (" + e.cause() +
                ", first recorded by node " + e.by() + ")") + " at " + at(e.atNs()) + ": " + e.why();
        }

        private String at(final long ns)
        {
            return "mono " + String.format(Locale.ROOT, "%.3f s", ns / 1e9);
        }
    }

    /** From a SIGKILL to the launcher seeing the process gone. */
    static final long KILL_EXIT_NS = 10_000_000_000L;
    /** How long a driver holds a killed client's ports: its client liveness timeout (5 s), with a margin. */
    static final long PORT_HELD_NS = 10_000_000_000L;
    /** From a driver's death to its nodes noticing (their driver timeout) on a loaded host. */
    static final long DRIVER_NOTICE_NS = 30_000_000_000L;

    static long ms(final long ns)
    {
        return ns / 1_000_000;
    }
}
