package io.ringwatch.core.explore;

import io.ringwatch.core.sim.Wire;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A bounded exhaustive explorer over real {@code DetectorNode}s, in the manner of stateright or Coyote: a depth-first
 * search over every order of the pending events of a {@link World} and every placement of up to
 * {@link ExploreConfig#faults()} faults, pruning states met before (by {@link World#fingerprint fingerprint}). The
 * nodes cannot be copied, so one world runs the whole search and {@link World#backtrack backtracks}: its own state is
 * saved before each step, and a node called since the branch point is rebuilt from its own calls.
 * <p>
 * Every state is judged: the world's own checkers as each step runs (split brain, accuracy of each declaration, the
 * majority rule, incarnations only growing, joins admitted by members, re-forms only with nobody else taking part),
 * bounded liveness (whole within {@link ExploreConfig#livenessNs()} of the last fault healing) and, whenever the
 * cluster is whole, the simulator's end-of-run checks. The search stops at the first violation, with its trace, or
 * ({@link ExploreConfig#keepGoing()}) goes on around violating states and keeps the first trace of each kind.
 * <p>
 * Pure: no clock, no threads, no randomness; the same config explores the same states in the same order.
 */
public final class Explorer
{
    /** States between two calls of a {@link Progress}. */
    public static final int PROGRESS_INTERVAL = 1 << 16;

    /**
     * Told how a long search goes, from outside the pure core (which reads no clock).
     */
    @FunctionalInterface
    public interface Progress
    {
        /**
         * @param states distinct states so far.
         * @param findings kinds of violation found so far.
         * @return false to stop the search here (reported as incomplete).
         */
        boolean onProgress(long states, int findings);
    }

    private final ExploreConfig config;
    private final Progress progress;
    private final Wire wire;
    private final boolean fromStart;
    private final Map<Key, Integer> visited = new HashMap<>();
    private final List<Step> path = new ArrayList<>();
    private final Fingerprint fingerprint = new Fingerprint();
    private long transitions;
    private long revisits;
    private long replayedSteps;
    private int maxDepth;
    private long maxTimeNs;
    private long depthCutoffs;
    private long splitBrainStates;
    // stopped by the state bound or by the progress callback
    private boolean stoppedAtBound;
    private final Map<String, ExploreResult.Finding> findings = new LinkedHashMap<>();

    /**
     * @param config what to explore.
     */
    public Explorer(final ExploreConfig config)
    {
        this(config, (states, findings) -> true);
    }

    /**
     * @param config   what to explore.
     * @param progress told every {@link #PROGRESS_INTERVAL} states.
     */
    public Explorer(final ExploreConfig config, final Progress progress)
    {
        this(config, progress, false);
    }

    /**
     * @param config    what to explore.
     * @param progress  told every {@link #PROGRESS_INTERVAL} states.
     * @param fromStart true to rebuild every state by replaying its whole execution on a fresh world (the old way,
     *                  kept to check that backtracking explores the very same states, and to measure the gain).
     */
    public Explorer(final ExploreConfig config, final Progress progress, final boolean fromStart)
    {
        this.config = config;
        this.progress = progress;
        this.wire = World.wireFor(config);
        this.fromStart = fromStart;
    }

    /**
     * @param config what to explore.
     * @return what the search found.
     */
    public static ExploreResult explore(final ExploreConfig config)
    {
        return new Explorer(config).run();
    }

    /**
     * @return what the search found.
     */
    public ExploreResult run()
    {
        final World world = new World(config, wire, null, !fromStart);
        search(world, 0);
        return new ExploreResult(visited.size(), transitions, revisits, maxDepth, maxTimeNs, depthCutoffs,
            splitBrainStates, !stoppedAtBound && (findings.isEmpty() || config.keepGoing()),
            List.copyOf(findings.values()), fromStart ? replayedSteps : world.replayedCalls());
    }

    /**
     * Runs steps from the initial state, judging every state on the way as the search does.
     *
     * @param config the cluster the steps were found on.
     * @param steps  a trace.
     * @param log    receives a readable line per event.
     * @return the violations met, empty if none; the replay stops at the first state that has one.
     * @throws IllegalArgumentException if a step was not enabled where it comes.
     */
    public static List<String> replay(final ExploreConfig config, final List<Step> steps, final List<String> log)
    {
        final World world = new World(config, World.wireFor(config), log);
        List<String> found = judge(world);
        for (int i = 0; i < steps.size() && found.isEmpty(); i++)
        {
            if (!world.apply(steps.get(i)))
            {
                throw new IllegalArgumentException("step " + i + " (" + steps.get(i) + ") is not enabled there");
            }
            found = judge(world);
        }
        return found;
    }

    /**
     * @return false once the search must stop.
     */
    private boolean search(final World world, final int depth)
    {
        final List<Step> steps = new ArrayList<>();
        final List<String> found = judge(world, world.enabled(steps));
        if (!found.isEmpty())
        {
            final ExploreResult.Finding finding = new ExploreResult.Finding(List.copyOf(found), List.copyOf(path));
            findings.putIfAbsent(finding.kind(), finding);
            return config.keepGoing();
        }
        world.fingerprint(fingerprint);
        final Key key = new Key(fingerprint.low(), fingerprint.high());
        final int left = config.maxDepth() - depth;
        final Integer seenLeft = visited.get(key);
        if (seenLeft != null && seenLeft >= left)
        {
            revisits++;
            return true;
        }
        visited.put(key, left);
        maxDepth = Math.max(maxDepth, depth);
        maxTimeNs = Math.max(maxTimeNs, world.nowNs());
        splitBrainStates += world.splitBrain() ? 1 : 0;
        if (visited.size() >= config.maxStates() ||
            visited.size() % PROGRESS_INTERVAL == 0 && !progress.onProgress(visited.size(), findings.size()))
        {
            stoppedAtBound = true;
            return false;
        }
        if (left == 0)
        {
            depthCutoffs++;
            return true;
        }
        for (int i = 0, size = steps.size(); i < size; i++)
        {
            // the first step goes on with this world; the others take it back here, as the first one's search
            // moved it on
            final World next = i == 0 || !fromStart ? world : rebuild();
            if (i > 0 && !fromStart)
            {
                world.backtrack(depth);
            }
            next.run(steps.get(i));
            transitions++;
            path.add(steps.get(i));
            if (!search(next, depth + 1))
            {
                return false;
            }
            path.remove(path.size() - 1);
        }
        return true;
    }

    private World rebuild()
    {
        final World world = new World(config, wire, null);
        for (int i = 0, size = path.size(); i < size; i++)
        {
            world.run(path.get(i));
        }
        replayedSteps += path.size();
        return world;
    }

    private static List<String> judge(final World world)
    {
        return judge(world, world.enabled(new ArrayList<>()));
    }

    /**
     * @param dueNs when the world's next step falls due ({@link World#enabled}).
     */
    private static List<String> judge(final World world, final long dueNs)
    {
        if (!world.violations().isEmpty())
        {
            return world.violations();
        }
        final String liveness = world.livenessViolation(dueNs);
        if (liveness != null)
        {
            return List.of(liveness);
        }
        return world.isWhole() ? world.wholeChecks() : List.of();
    }

    private record Key(long low, long high)
    {
    }
}
