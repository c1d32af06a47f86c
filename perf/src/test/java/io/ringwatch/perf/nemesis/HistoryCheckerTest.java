package io.ringwatch.perf.nemesis;

import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.transport.aeron.view.JournalEntry;
import io.ringwatch.transport.aeron.view.JournalLayout;
import io.ringwatch.transport.aeron.view.JournalLayout.Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static io.ringwatch.perf.nemesis.HistoryChecker.ExclusionClass.CRASHED;
import static io.ringwatch.perf.nemesis.HistoryChecker.ExclusionClass.CUT_OFF;
import static io.ringwatch.perf.nemesis.HistoryChecker.ExclusionClass.FALSE;
import static io.ringwatch.perf.nemesis.HistoryChecker.ExclusionClass.MINORITY;
import static io.ringwatch.perf.nemesis.HistoryChecker.ExclusionClass.PAUSED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The history checker on histories written by hand: a clean one passes, and each check has a negative control, a
 * doctored history it must fail (split brain, a false exclusion, a short pause or cut taken for a long one, a missed
 * and a late detection, no or slow re-admission, an incarnation that went back, an unexplained death, an exception in
 * a log, a driver that died by itself).
 */
class HistoryCheckerTest
{
    private static final long MS = 1_000_000L;
    private static final long DELTA = 100 * MS;
    private static final long ETA = 10 * MS;
    private static final long END = 10_000 * MS;
    private static final int[] HOST_OF = {0, 0, 1, 1};
    private static final HistoryChecker CHECKER = new HistoryChecker(100 * MS, 5_000 * MS);

    /**
     * A history being written: four nodes on two hosts, rank 3 killed at 1 s, declared dead by its observer (rank 0),
     * the notice spread, restarted at 2 s and admitted at 3 s.
     */
    private static final class Builder
    {
        final List<JournalEntry> journal = new ArrayList<>();
        final List<Life> lives = new ArrayList<>();
        final List<Life> drivers = new ArrayList<>();
        final List<Fault> faults = new ArrayList<>();
        long healedNs = 1_000 * MS;
        long admittedNs = 3_100 * MS;
        long seq;

        Builder()
        {
            for (int r = 0; r < 4; r++)
            {
                if (r != 3)
                {
                    lives.add(new Life(r, 100 + r, 0, Long.MAX_VALUE, -1, ""));
                }
                record(r, 100 + r, 1, Event.STARTED, r, 0, 0, -1);
            }
            lives.add(new Life(3, 103, 0, 1_010 * MS, Life.SIGKILLED, ""));
            lives.add(new Life(3, 203, 2_000 * MS, Long.MAX_VALUE, -1, ""));
            drivers.add(new Life(0, 50, 0, Long.MAX_VALUE, -1, ""));
            drivers.add(new Life(1, 51, 0, Long.MAX_VALUE, -1, ""));
            faults.add(new Fault(1, FaultKind.KILL, 1_000 * MS, 1_000 * MS, new int[0], new int[]{3}, ""));
            record(0, 100, 1_200, Event.DEAD, 3, 0, 1, 0);
            record(1, 101, 1_250, Event.DEAD, 3, 0, 2, 0);
            record(2, 102, 1_260, Event.DEAD, 3, 0, 2, 0);
            record(3, 203, 2_100, Event.STARTED, 3, 1, JournalLayout.STARTED_TO_JOIN, -1);
            record(3, 203, 2_500, Event.JOINING, 3, 1, 0, -1);
            record(3, 203, 3_000, Event.JOINED, 3, 1, 4, -1);
            for (int r = 0; r < 3; r++)
            {
                record(r, 100 + r, 3_000, Event.JOINED, 3, 1, 4, -1);
            }
        }

        Builder record(final int node, final long pid, final long atMs, final Event event, final int rank,
            final int incarnation, final int cause, final int reporter)
        {
            journal.add(new JournalEntry(1, node, ++seq, atMs * MS, 0, event, rank, incarnation, cause, reporter,
                (int)pid));
            return this;
        }

        Builder remove(final Predicate<JournalEntry> which)
        {
            journal.removeIf(which);
            return this;
        }

        HistoryChecker.Result check()
        {
            return CHECKER.check(new NemesisHistory(HOST_OF, DELTA, ETA, journal, lives, drivers, faults, healedNs,
                admittedNs, "", END));
        }
    }

    private static void assertFailsWith(final HistoryChecker.Result result, final String what)
    {
        assertFalse(result.passed(), "must fail: " + what);
        assertTrue(result.failures().stream().anyMatch(f -> f.startsWith(what)), what + " expected in " +
            result.failures());
    }

    @Test
    void shouldPassACleanHistoryWithTheCrashClassifiedAndLearntInBound()
    {
        final HistoryChecker.Result result = new Builder().check();
        assertTrue(result.passed(), result.failures().toString());
        assertEquals(1, result.exclusions().size());
        assertEquals(CRASHED, result.exclusions().get(0).cls());
        assertEquals(1, result.detections().size());
        final HistoryChecker.Detection d = result.detections().get(0);
        assertEquals(260 * MS, d.learnNs());
        // T(1) for n = 4 with τ = η/3: 2δ + τ + 8τ·log₂4, plus the slack
        assertEquals((long)Math.ceil(2 * DELTA + ETA / 3 + 16 * (ETA / 3)) + 100 * MS, d.boundNs());
        assertEquals(2_100 * MS, result.readmitNs());
    }

    @Test
    void shouldFailTwoRunningNodesHoldingEachOtherDead()
    {
        final HistoryChecker.Result result = new Builder()
            .record(1, 101, 5_000, Event.DEAD, 2, 0, 1, 1)
            .record(2, 102, 5_100, Event.DEAD, 1, 0, 1, 2)
            .check();
        assertFailsWith(result, "split brain");
        assertEquals(1, result.splitBrains().size());
        assertEquals(5_100 * MS, result.splitBrains().get(0).atNs());
        assertEquals(END, result.splitBrains().get(0).untilNs());
    }

    @Test
    void shouldNotCallItSplitBrainWhenOneSideStopped()
    {
        final Builder b = new Builder()
            .record(1, 101, 5_000, Event.DEAD, 2, 0, 1, 1)
            .record(2, 102, 5_050, Event.EXCLUDED, 2, 0, ExclusionCause.FENCED.code(), 1)
            .record(2, 102, 5_100, Event.DEAD, 1, 0, 1, 2);
        b.faults.add(new Fault(2, FaultKind.PAUSE_LONG, 4_800 * MS, 5_200 * MS, new int[0], new int[]{2}, ""));
        final HistoryChecker.Result result = b.check();
        assertTrue(result.splitBrains().isEmpty(), result.splitBrains().toString());
        assertTrue(result.passed(), result.failures().toString());
        assertEquals(PAUSED, result.exclusions().get(1).cls());
    }

    @Test
    void shouldFailAnExclusionThatNothingExplains()
    {
        final HistoryChecker.Result result = new Builder().record(0, 100, 6_000, Event.DEAD, 1, 0, 2, 2).check();
        assertFailsWith(result, "false exclusion");
        assertEquals(1, result.count(FALSE));
    }

    @Test
    void shouldFailAnExclusionBlamedOnAPauseOrCutShorterThanDelta()
    {
        final Builder paused = new Builder().record(0, 100, 6_000, Event.DEAD, 1, 0, 2, 2);
        paused.faults.add(new Fault(2, FaultKind.PAUSE_SHORT, 5_900 * MS, 5_925 * MS, new int[0], new int[]{1}, ""));
        assertFailsWith(paused.check(), "false exclusion");

        final Builder cut = new Builder().record(0, 100, 6_000, Event.DEAD, 2, 0, 2, 3);
        cut.faults.add(new Fault(2, FaultKind.CUT_SHORT, 5_900 * MS, 5_925 * MS, new int[]{1}, new int[0], ""));
        assertFailsWith(cut.check(), "false exclusion");

        // the same verdicts with the faults long enough are explained
        final Builder longPause = new Builder().record(0, 100, 6_000, Event.DEAD, 1, 0, 2, 2);
        longPause.faults.add(new Fault(2, FaultKind.PAUSE_LONG, 5_700 * MS, 6_100 * MS, new int[0], new int[]{1},
            ""));
        final HistoryChecker.Result pausedResult = longPause.check();
        assertTrue(pausedResult.passed(), pausedResult.failures().toString());
        assertEquals(1, pausedResult.count(PAUSED));

        final Builder longCut = new Builder().record(0, 100, 6_000, Event.DEAD, 2, 0, 2, 3);
        longCut.faults.add(new Fault(2, FaultKind.CUT_LONG, 5_700 * MS, 7_000 * MS, new int[]{1}, new int[0], ""));
        final HistoryChecker.Result cutResult = longCut.check();
        assertTrue(cutResult.passed(), cutResult.failures().toString());
        assertEquals(1, cutResult.count(CUT_OFF));
    }

    @Test
    void shouldFailADeafObserversAccusationOfAHealthyNode()
    {
        // host 1 is deaf: its nodes are cut off, but a node of host 0 is not
        final Builder b = new Builder().record(2, 102, 6_000, Event.DEAD, 1, 0, 1, 2);
        b.faults.add(new Fault(2, FaultKind.DEAF, 5_500 * MS, 7_000 * MS, new int[]{1}, new int[0], ""));
        assertFailsWith(b.check(), "false exclusion");
    }

    @Test
    void shouldTakeTheDeathOfAnEarlierIncarnationAsNoExclusionOfTheRunningLife()
    {
        // rank 2 runs under incarnation 7; its contact declares the boot life (0) it held when 2 joins again
        final Builder b = new Builder().remove(e -> e.node() == 2 && e.event() == Event.STARTED)
            .record(2, 102, 1, Event.STARTED, 2, 7, 0, -1)
            .record(1, 101, 6_000, Event.DEAD, 2, 0, 1, 1)
            .record(1, 101, 6_001, Event.JOINED, 2, 7, 4, -1);
        assertEquals(0, b.check().count(FALSE), () -> b.check().exclusions().toString());

        // the running life itself declared: still false
        final Builder own = new Builder().remove(e -> e.node() == 2 && e.event() == Event.STARTED)
            .record(2, 102, 1, Event.STARTED, 2, 7, 0, -1)
            .record(1, 101, 6_000, Event.DEAD, 2, 7, 1, 1);
        assertFailsWith(own.check(), "false exclusion");
    }

    @ParameterizedTest
    @EnumSource(value = FaultKind.class, names = {"DEAF", "CUT_LONG"})
    void shouldLetAHostThatHoldsHalfOfMWithTheLowestRankDeclareTheSideItCannotHear(final FaultKind kind)
    {
        // host 0 holds half the membership with the lowest rank: the majority rule's tie is its to win, and from its
        // side a deaf ear and a cut look the same, so its verdict on rank 2 is a cut-off one. A deaf host's notice
        // reaches rank 2, which stops on it; a host cut off is heard by nobody, and rank 2 stops on its own count
        // (nemesis run 5, mono 51370.6, when the checker took the host cut off for the side that must stop).
        final ExclusionCause stop = kind == FaultKind.DEAF ? ExclusionCause.NOTICE : ExclusionCause.MINORITY;
        final Builder b = new Builder()
            .record(0, 100, 6_000, Event.DEAD, 2, 0, 1, 0)
            .record(2, 102, 6_050, Event.EXCLUDED, 2, 0, stop.code(), 0);
        b.faults.add(new Fault(2, kind, 5_500 * MS, 7_000 * MS, new int[]{0}, new int[0], ""));
        final HistoryChecker.Result result = b.check();
        assertEquals(0, result.count(FALSE), result.exclusions().toString());
        assertTrue(result.count(CUT_OFF) >= 1, result.exclusions().toString());

        // the same verdict with rank 1 stopped before the fault: host 0's side is a minority and must accuse nobody
        final Builder minority = new Builder()
            .record(1, 101, 4_000, Event.EXCLUDED, 1, 0, ExclusionCause.ISOLATED.code(), 1)
            .record(0, 100, 6_000, Event.DEAD, 2, 0, 1, 0);
        minority.faults.add(new Fault(2, FaultKind.CUT_LONG, 3_800 * MS, 4_500 * MS, new int[]{0}, new int[0], ""));
        minority.faults.add(new Fault(3, kind, 5_500 * MS, 7_000 * MS, new int[]{0}, new int[0], ""));
        assertFailsWith(minority.check(), "false exclusion");
    }

    @Test
    void shouldClassifyTheSideOfASplitThatStopsAsMinorityAndAStopOnTheOtherSideAsFalse()
    {
        final Builder b = new Builder()
            .record(2, 102, 6_000, Event.EXCLUDED, 2, 0, ExclusionCause.MINORITY.code(), 2)
            .record(0, 100, 6_100, Event.DEAD, 2, 0, 1, 0);
        b.faults.add(new Fault(2, FaultKind.SPLIT_UNEVEN, 5_700 * MS, 8_000 * MS, new int[]{1}, new int[0], ""));
        final HistoryChecker.Result result = b.check();
        assertTrue(result.passed(), result.failures().toString());
        assertEquals(2, result.count(MINORITY));

        final Builder wrongSide = new Builder()
            .record(0, 100, 6_000, Event.EXCLUDED, 0, 0, ExclusionCause.MINORITY.code(), 0);
        wrongSide.faults.add(new Fault(2, FaultKind.SPLIT_UNEVEN, 5_700 * MS, 8_000 * MS, new int[]{1}, new int[0],
            ""));
        assertFailsWith(wrongSide.check(), "false exclusion");
    }

    @Test
    void shouldJudgeTheSideOfAnEvenSplitThatMustStopFromTheMembershipAtItsStart()
    {
        // rank 1 (host 0) stopped long before: host 1 holds two admitted nodes, host 0 one, so host 0's side stops
        final Builder b = new Builder()
            .record(1, 101, 4_000, Event.EXCLUDED, 1, 0, ExclusionCause.ISOLATED.code(), 1)
            .record(0, 100, 6_000, Event.EXCLUDED, 0, 0, ExclusionCause.MINORITY.code(), 0);
        b.faults.add(new Fault(2, FaultKind.CUT_LONG, 3_800 * MS, 4_500 * MS, new int[]{0}, new int[0], ""));
        b.faults.add(new Fault(3, FaultKind.SPLIT_EVEN, 5_700 * MS, 8_000 * MS, new int[]{1}, new int[0], ""));
        final HistoryChecker.Result result = b.check();
        assertTrue(result.passed(), result.failures().toString());
        assertEquals(1, result.count(MINORITY));

        // the same split with every node admitted: the side without the lowest rank (host 1) must stop, not host 0
        final Builder tie = new Builder()
            .record(0, 100, 6_000, Event.EXCLUDED, 0, 0, ExclusionCause.MINORITY.code(), 0);
        tie.faults.add(new Fault(2, FaultKind.SPLIT_EVEN, 5_700 * MS, 8_000 * MS, new int[]{1}, new int[0], ""));
        assertFailsWith(tie.check(), "false exclusion");

        // a node killed as the split began: the majority is anyone's guess, either side may stop
        tie.faults.add(new Fault(3, FaultKind.KILL, 5_650 * MS, 5_650 * MS, new int[0], new int[]{2}, ""));
        assertEquals(0, tie.check().count(FALSE));
    }

    @Test
    void shouldAcceptAStartFailureOnlyWhenItsDriverOrItsPortWasTakenByTheNemesis()
    {
        final Builder b = new Builder();
        b.lives.removeIf(l -> l.pid() == 203);
        b.lives.add(new Life(3, 203, 2_000 * MS, 6_000 * MS, 2, ""));
        final Fault kill = b.faults.remove(0);
        assertFailsWith(b.check(), "rank 3 pid 203 died of exit 2");
        // 1 s after the kill of its previous life: the driver still held its port
        b.faults.add(kill);
        assertTrue(b.check().failures().stream().noneMatch(f -> f.contains("exit 2")), b.check().failures()
            .toString());
        // its driver killed while it started
        b.faults.clear();
        b.faults.add(new Fault(2, FaultKind.KILL_DRIVER, 2_500 * MS, 2_500 * MS, new int[]{1}, new int[0], ""));
        b.drivers.set(1, new Life(1, 51, 0, 2_510 * MS, 137, ""));
        assertTrue(b.check().failures().stream().noneMatch(f -> f.contains("exit 2")), b.check().failures()
            .toString());
    }

    @Test
    void shouldFailACrashASurvivorNeverLearns()
    {
        final HistoryChecker.Result result = new Builder()
            .remove(e -> e.node() == 2 && e.rank() == 3)
            .check();
        assertFailsWith(result, "missed detection");
        assertEquals(List.of(2), result.detections().get(0).missedBy());
    }

    @Test
    void shouldFailACrashLearntAfterTheBound()
    {
        final HistoryChecker.Result result = new Builder()
            .remove(e -> e.node() == 2 && e.rank() == 3 && e.event() == Event.DEAD)
            .record(2, 102, 1_500, Event.DEAD, 3, 0, 2, 0)
            .check();
        assertFailsWith(result, "missed detection");
    }

    @Test
    void shouldNotCountAKillOfAJoinerOrOfANodeAlreadyHeldDeadAsADetection()
    {
        // the restarted rank 3 killed again before it was admitted: nobody had it to lose
        final Builder joiner = new Builder().remove(e -> e.pid() == 203 && e.event() != Event.STARTED)
            .remove(e -> e.rank() == 3 && e.event() == Event.JOINED);
        joiner.lives.removeIf(l -> l.pid() == 203);
        joiner.lives.add(new Life(3, 203, 2_000 * MS, 2_600 * MS, Life.SIGKILLED, ""));
        joiner.faults.add(new Fault(2, FaultKind.KILL, 2_590 * MS, 2_590 * MS, new int[0], new int[]{3}, ""));
        joiner.admittedNs = -1;
        final HistoryChecker.Result result = joiner.check();
        assertEquals(1, result.detections().size(), result.detections().toString());
        assertEquals(1_000 * MS, result.detections().get(0).crashNs());

        // rank 1 paused long, declared dead by everyone, then killed: its kill is nobody's news
        final Builder held = new Builder()
            .record(0, 100, 5_300, Event.DEAD, 1, 0, 2, 2)
            .record(2, 102, 5_300, Event.DEAD, 1, 0, 1, 2)
            .record(3, 203, 5_300, Event.DEAD, 1, 0, 2, 2);
        held.faults.add(new Fault(2, FaultKind.PAUSE_LONG, 5_000 * MS, 5_500 * MS, new int[0], new int[]{1}, ""));
        held.faults.add(new Fault(3, FaultKind.KILL, 5_600 * MS, 5_600 * MS, new int[0], new int[]{1}, ""));
        held.lives.removeIf(l -> l.pid() == 101);
        held.lives.add(new Life(1, 101, 0, 5_610 * MS, Life.SIGKILLED, ""));
        final HistoryChecker.Result heldResult = held.check();
        assertTrue(heldResult.passed(), heldResult.failures().toString());
        assertEquals(1, heldResult.detections().size(), heldResult.detections().toString());
    }

    @Test
    void shouldHoldACrashUnderAnotherFaultOnlyToBeLearntEventually()
    {
        final Builder b = new Builder()
            .remove(e -> e.node() == 2 && e.rank() == 3 && e.event() == Event.DEAD)
            .record(2, 102, 1_900, Event.DEAD, 3, 0, 2, 0);
        b.faults.add(new Fault(2, FaultKind.CPU_HOG, 900 * MS, 2_000 * MS, new int[]{1}, new int[0], ""));
        final HistoryChecker.Result result = b.check();
        assertTrue(result.passed(), result.failures().toString());
        assertEquals(-1, result.detections().get(0).boundNs());
    }

    @Test
    void shouldFailAClusterNeverOrSlowlyReadmitted()
    {
        final Builder never = new Builder();
        never.admittedNs = -1;
        assertFailsWith(never.check(), "not re-admitted");
        final Builder slow = new Builder();
        slow.admittedNs = slow.healedNs + 6_000 * MS;
        assertFailsWith(slow.check(), "slow re-admission");
    }

    @Test
    void shouldFailAnIncarnationThatWentBack()
    {
        final HistoryChecker.Result rejoined = new Builder()
            .remove(e -> e.pid() == 203)
            .record(3, 203, 2_100, Event.STARTED, 3, 0, JournalLayout.STARTED_TO_JOIN, -1)
            .record(3, 203, 2_500, Event.JOINING, 3, 0, 0, -1)
            .record(3, 203, 3_000, Event.JOINED, 3, 0, 4, -1)
            .check();
        assertFailsWith(rejoined, "incarnation went back");

        final HistoryChecker.Result seen = new Builder().record(0, 100, 4_000, Event.JOINED, 3, 0, 4, -1).check();
        assertFailsWith(seen, "incarnation went back");
    }

    @Test
    void shouldFailADeathTheNemesisDidNotCause()
    {
        final Builder crashed = new Builder();
        crashed.lives.removeIf(l -> l.pid() == 101);
        crashed.lives.add(new Life(1, 101, 0, 7_000 * MS, 1, ""));
        assertFailsWith(crashed.check(), "rank 1 pid 101 died of exit 1");

        final Builder killed = new Builder();
        killed.faults.clear();
        assertFailsWith(killed.check(), "rank 3 pid 103 died of exit 137");

        final Builder logged = new Builder();
        logged.lives.removeIf(l -> l.pid() == 101);
        logged.lives.add(new Life(1, 101, 0, Long.MAX_VALUE, -1, Supervisors.problems(
            "INFO ready\njava.lang.NullPointerException: boom\n\tat io.ringwatch.X.y(X.java:1)\n")));
        assertFailsWith(logged.check(), "rank 1 pid 101 logged");

        final Builder driver = new Builder();
        driver.drivers.set(1, new Life(1, 51, 0, 8_000 * MS, 137, ""));
        assertFailsWith(driver.check(), "driver of host 1 pid 51 died");
    }

    @Test
    void shouldAcceptADriverLossStopAfterTheDriverWasKilled()
    {
        final Builder b = new Builder()
            .record(2, 102, 6_050, Event.EXCLUDED, 2, 0, ExclusionCause.DRIVER_LOST.code(), 2)
            .record(3, 203, 6_060, Event.EXCLUDED, 3, 1, ExclusionCause.DRIVER_LOST.code(), 3)
            .record(0, 100, 6_300, Event.DEAD, 3, 1, 1, 0)
            .record(0, 100, 6_320, Event.DEAD, 2, 0, 2, 0)
            .record(1, 101, 6_330, Event.DEAD, 3, 1, 2, 0)
            .record(1, 101, 6_340, Event.DEAD, 2, 0, 2, 0);
        b.faults.add(new Fault(2, FaultKind.KILL_DRIVER, 6_000 * MS, 6_000 * MS, new int[]{1}, new int[0], ""));
        b.drivers.set(1, new Life(1, 51, 0, 6_001 * MS, 137, ""));
        b.lives.removeIf(l -> l.pid() == 102 || l.pid() == 203);
        b.lives.add(new Life(2, 102, 0, 6_100 * MS, 4, ""));
        b.lives.add(new Life(3, 203, 2_000 * MS, 6_100 * MS, 4, ""));
        b.healedNs = 6_000 * MS;
        b.admittedNs = 9_000 * MS;
        final HistoryChecker.Result result = b.check();
        assertTrue(result.passed(), result.failures().toString());
        assertEquals(3, result.detections().size());
        assertEquals(5, result.count(CRASHED));

        // the same stops with no driver killed are not explained
        b.faults.removeIf(f -> f.kind() == FaultKind.KILL_DRIVER);
        assertFailsWith(b.check(), "false exclusion");
    }

    @Test
    void shouldTakeADeclarationAfterTheKillButBeforeTheSupervisorSawTheExitAsACrash()
    {
        // run 5, mono 49987.5: a restart storm killed ranks 2 and 0; their observers declared them 351 ms later, and
        // the supervisors, at load 38, saw the exits 100 ms after that
        final Builder b = new Builder().record(2, 102, 6_300, Event.DEAD, 1, 0, 1, 2);
        b.lives.removeIf(l -> l.pid() == 101);
        b.lives.add(new Life(1, 101, 0, 6_400 * MS, Life.SIGKILLED, ""));
        b.faults.add(new Fault(2, FaultKind.RESTART_STORM, 6_000 * MS, 6_000 * MS, new int[0], new int[]{1, 3}, ""));
        final HistoryChecker.Result result = b.check();
        assertEquals(0, result.count(FALSE), result.exclusions().toString());
        assertEquals(2, result.count(CRASHED), result.exclusions().toString());

        // negative control: declared before the kill, it is false
        final Builder early = new Builder().record(2, 102, 5_900, Event.DEAD, 1, 0, 1, 2);
        early.lives.removeIf(l -> l.pid() == 101);
        early.lives.add(new Life(1, 101, 0, 6_400 * MS, Life.SIGKILLED, ""));
        early.faults.add(new Fault(2, FaultKind.RESTART_STORM, 6_000 * MS, 6_000 * MS, new int[0], new int[]{1, 3},
            ""));
        assertFailsWith(early.check(), "false exclusion");
    }

    @Test
    void shouldTakeTheDeclarationOfANodeWhoseDriverWasKilledAsACrash()
    {
        // run 5, mono 50826.4: host 3's driver killed, its node declared 0.8 s later while the process still ran
        final Builder b = new Builder().record(2, 102, 6_300, Event.DEAD, 1, 0, 1, 2);
        b.faults.add(new Fault(2, FaultKind.KILL_DRIVER, 6_000 * MS, 6_000 * MS, new int[]{0}, new int[0], ""));
        b.drivers.set(0, new Life(0, 50, 0, 6_001 * MS, 137, ""));
        final HistoryChecker.Result result = b.check();
        assertEquals(0, result.count(FALSE), result.exclusions().toString());

        // negative control: the other host's driver killed explains nothing about rank 1
        final Builder other = new Builder().record(2, 102, 6_300, Event.DEAD, 1, 0, 1, 2);
        other.faults.add(new Fault(2, FaultKind.KILL_DRIVER, 6_000 * MS, 6_000 * MS, new int[]{1}, new int[0], ""));
        other.drivers.set(1, new Life(1, 51, 0, 6_001 * MS, 137, ""));
        assertFailsWith(other.check(), "false exclusion");
    }

    @Test
    void shouldNotHoldACrashAgainstASurvivorWhoseDriverWasKilledBeforeTheNoticeCame()
    {
        // run 5, mono 50077.3: rank 6 killed, host 1's driver killed 252 ms later; ranks 2 and 3 never heard the notice
        final Builder b = new Builder().remove(e -> e.node() == 2 && e.event() == Event.DEAD && e.rank() == 3);
        b.faults.add(new Fault(2, FaultKind.KILL_DRIVER, 1_100 * MS, 1_100 * MS, new int[]{1}, new int[0], ""));
        final HistoryChecker.Result result = b.check();
        assertTrue(result.failures().stream().noneMatch(f -> f.startsWith("missed")), result.failures().toString());
        assertTrue(result.detections().get(0).missedBy().isEmpty(), result.detections().toString());

        // negative control: with the driver alive, rank 2 missed it
        b.faults.removeIf(f -> f.kind() == FaultKind.KILL_DRIVER);
        assertFailsWith(b.check(), "missed");
    }
}
