package io.ringwatch.perf;

import io.ringwatch.core.explore.ExploreConfig;
import io.ringwatch.core.explore.ExploreResult;
import io.ringwatch.core.explore.Explorer;
import io.ringwatch.core.explore.Step;
import io.ringwatch.core.protocol.BrokenRules;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code explore}: every interleaving of a few real nodes under a budget of faults ({@link Explorer}), or the replay
 * of one trace it printed.
 */
final class ExploreCommand implements Command
{
    public String name()
    {
        return "explore";
    }

    public String summary()
    {
        return "bounded exhaustive exploration of a small cluster's interleavings and faults";
    }

    public String usage()
    {
        return String.join(System.lineSeparator(),
            "usage: ringwatch-perf explore [options]",
            "Runs the real nodes of a small cluster through every order of their pending events (wakes at deadlines,",
            "deliveries within tau, in any order) and every placement of up to F faults, pruning repeated states, and",
            "checks every state: split brain, accuracy, the majority rule, incarnations only growing, joins admitted by",
            "members, re-forms only with every rank answering, and whole again within --liveness of the last heal.",
            "  --nodes N               cluster size, 2 to 8 (default 3)",
            "  --faults F              faults per execution (default 2)",
            "  --kinds K               fault kinds, comma-separated: crash, restart, pause, cut, lose (default all)",
            "  --heartbeat-period D    eta (default 10ms)",
            "  --suspicion-timeout D   delta (default 30ms)",
            "  --tau D                 longest message delay (default 3ms)",
            "  --pause-for D           how long a pause lasts (default 2 delta)",
            "  --cut-sides S           only these cuts: sides comma-separated, ranks of a side joined by + (0+1,2)",
            "  --cut-for D             how long a cut lasts before it heals (default 2 delta)",
            "  --flap-up D             the cut flaps: later cuts cut the first one's sides again, within D of a heal",
            "  --faults-from D         no fault before this virtual time (targeted searches; default 0)",
            "  --faults-until D        no fault after this virtual time (targeted searches; default no bound)",
            "  --view-digest-period D  the view repair's digest period (default 4 delta)",
            "  --dedup-capacity C      broadcast ids each node remembers (default 64)",
            "  --liveness D            whole again within this of the last heal (default 30 delta)",
            "  --restart-after D       every rank that stops restarts this long after, outside the budget",
            "  --startup-grace D       every node's startup grace (default 0)",
            "  --max-depth S           steps per execution (default 3000)",
            "  --max-states S          stop after this many distinct states (default no bound)",
            "  --max-seconds T         stop after this much wall-clock time (default no bound)",
            "  --break RULES           run every node without these rules (negative controls), as simulate takes them",
            "  --keep-going            go on past violations, reporting the first trace of each kind",
            "  --from-start            rebuild each state by replaying it from the start instead of backtracking",
            "                          (the same search, slower: for comparison)",
            "  --replay STEPS          run one trace (the steps a violation printed) and print its events",
            "durations take a unit: ns, us, ms or s. Exit code 1 if a violation was found.");
    }

    public int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception
    {
        final Args flags = new Args(args, 0, "--keep-going", "--from-start");
        final ExploreConfig config = new ExploreConfig()
            .nodes(flags.intValue("--nodes", 3, 2, 8))
            .faults(flags.intValue("--faults", 2, 0, 16))
            .heartbeatPeriodNs(flags.durationNs(Args.HEARTBEAT_PERIOD, 10_000_000L))
            .suspicionTimeoutNs(flags.durationNs(Args.SUSPICION_TIMEOUT, 30_000_000L))
            .maxDelayNs(flags.durationNs("--tau", 3_000_000L))
            .pauseNs(flags.durationNs("--pause-for", -1))
            .cutNs(flags.durationNs("--cut-for", -1))
            .livenessNs(flags.durationNs("--liveness", -1))
            .startupGraceNs(flags.durationNs(Args.STARTUP_GRACE, 0))
            .restartAfterNs(flags.durationNs("--restart-after", -1))
            .flapUpNs(flags.durationNs("--flap-up", -1))
            .viewDigestPeriodNs(flags.durationNs("--view-digest-period", -1))
            .dedupCapacity(flags.intValue("--dedup-capacity", ProtocolSettings.DEFAULT_DEDUP_CAPACITY, 1, 1 << 20))
            .maxDepth(flags.intValue("--max-depth", 3_000, 1, 1_000_000))
            .maxStates(flags.longValue("--max-states", Long.MAX_VALUE, 1, Long.MAX_VALUE))
            .keepGoing(flags.switchOn("--keep-going"));
        final boolean fromStart = flags.switchOn("--from-start");
        final long maxSeconds = flags.longValue("--max-seconds", 365L * 24 * 3600, 1, 365L * 24 * 3600);
        final String replay = flags.string("--replay", "");
        final String broken = flags.string("--break", "");
        final String cutSides = flags.string("--cut-sides", "");
        final long faultsFromNs = flags.durationNs("--faults-from", 0);
        final long faultsUntilNs = flags.durationNs("--faults-until", Long.MAX_VALUE);
        try
        {
            config.faultKinds(ExploreConfig.faultKindsNamed(flags.string("--kinds",
                ExploreConfig.faultKindNames(ExploreConfig.ALL))));
            config.brokenRules(BrokenRules.named(broken));
            config.cutSides(cutSides);
            config.faultWindowNs(faultsFromNs, faultsUntilNs);
            config.settings();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(ex.getMessage());
        }
        flags.finish();

        out.println("explore " + config + (config.brokenRules() != 0 ? " break=" + broken : ""));
        if (!replay.isEmpty())
        {
            return replay(config, replay, out);
        }
        final long startNs = System.nanoTime();
        final long stopAtNs = startNs + maxSeconds * 1_000_000_000L;
        final ExploreResult result = new Explorer(config, (states, kinds) ->
        {
            final long nowNs = System.nanoTime();
            err.printf(Locale.ROOT, "%.0fs: %d states, %d kinds of violation%n", (nowNs - startNs) / 1e9, states, kinds);
            return nowNs - stopAtNs < 0;
        }, fromStart).run();
        final long wallNs = System.nanoTime() - startNs;
        out.printf(Locale.ROOT, "states %d, transitions %d, revisits %d, max depth %d steps, virtual time %.1fms, " +
            "depth cut-offs %d, transient split-brain states %d, node calls replayed %d, %s, wall %.1fs " +
            "(%.0f states/s)%n",
            result.states(), result.transitions(), result.revisits(), result.maxDepth(), result.maxTimeNs() / 1e6,
            result.depthCutoffs(), result.splitBrainStates(), result.replayedSteps(),
            result.complete() ? "complete" : result.passed() || config.keepGoing() ? "INCOMPLETE (state or time bound)" :
                "stopped at a violation",
            wallNs / 1e9, result.states() / Math.max(wallNs / 1e9, 1e-9));
        out.println("violations: " + (result.passed() ? "none" : result.findings().size() + " kinds"));
        if (result.passed())
        {
            return 0;
        }
        for (final ExploreResult.Finding finding : result.findings())
        {
            out.println("violation: " + String.join(" / ", finding.violations()));
            out.println("trace (" + finding.trace().size() + " steps; rerun with --replay \"STEPS\"):");
            out.println(Step.format(finding.trace()));
            final List<String> log = new ArrayList<>();
            Explorer.replay(config, finding.trace(), log);
            log.forEach((line) -> out.println("  " + line));
        }
        return 1;
    }

    private static int replay(final ExploreConfig config, final String steps, final PrintStream out)
        throws UsageException
    {
        final List<String> log = new ArrayList<>();
        final List<String> found;
        try
        {
            found = Explorer.replay(config, Step.parse(steps), log);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("--replay: " + ex.getMessage());
        }
        log.forEach((line) -> out.println("  " + line));
        out.println(found.isEmpty() ? "violations: none" : "violations: " + found.size());
        found.forEach((v) -> out.println("  " + v));
        return found.isEmpty() ? 0 : 1;
    }
}
