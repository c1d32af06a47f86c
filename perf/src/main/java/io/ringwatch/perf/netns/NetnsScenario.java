package io.ringwatch.perf.netns;

import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.transport.aeron.RingwatchConfiguration;
import io.ringwatch.transport.aeron.launch.NetnsCluster;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The faults of issue 10 on eight nodes spread over five test hosts, {2, 2, 1, 2, 1} (ranks 0-1, 2-3, 4, 5-6, 7),
 * each run on a fresh {@link NetnsCluster}: what is done, what the contract expects, and how the outcome is judged
 * once the cluster has settled.
 */
public enum NetnsScenario
{
    /** SIGKILL rank 1 (host 0) and rank 5 (host 3) together. */
    KILL_TWO_HOSTS("kill-two-hosts", "survivors hold exactly {1, 5}")
    {
        public Outcome run(final NetnsCluster cluster, final long deltaMs) throws InterruptedException
        {
            final long faultNs = cluster.kill(1);
            cluster.kill(5);
            final Observation o = Observation.settle(cluster, deltaMs, Set.of(1, 5));
            return o.outcome(this, faultNs, o.exited.keySet().equals(Set.of(1, 5)) && o.agreeOn(Set.of(1, 5)));
        }
    },

    /** Host 1 taken off the switch for δ/2. */
    SHORT_CUT("short-cut", "nobody excluded")
    {
        public Outcome run(final NetnsCluster cluster, final long deltaMs) throws InterruptedException
        {
            final long faultNs = System.nanoTime();
            final long cutMs = cluster.hosts().isolateFor(1, deltaMs / 2).millis();
            final Observation o = Observation.settle(cluster, deltaMs, Set.of());
            final Outcome outcome = o.outcome(this, faultNs, o.exited.isEmpty() && o.agreeOn(Set.of()));
            return new Outcome(this, outcome.asExpected(), "cut " + cutMs + " ms; " + outcome.observed(),
                outcome.fenceMs(), outcome.stabilizeMs());
        }
    },

    /** Host 3's media driver SIGKILLed. */
    DRIVER_KILL("driver-kill", "ranks 5, 6 exit 4 within δ reporting no death; the others hold exactly {5, 6}")
    {
        public Outcome run(final NetnsCluster cluster, final long deltaMs) throws InterruptedException
        {
            final long faultNs = cluster.killDriver(3);
            final Observation o = Observation.settle(cluster, deltaMs, Set.of(5, 6));
            boolean ok = o.exited.equals(Map.of(5, RingwatchConfiguration.EXIT_DRIVER_LOST,
                6, RingwatchConfiguration.EXIT_DRIVER_LOST)) && o.agreeOn(Set.of(5, 6));
            for (final int r : Set.of(5, 6))
            {
                ok &= o.views.get(r).deadCount() == 0 && o.excludedAfterMs(r, faultNs) < deltaMs;
            }
            return o.outcome(this, faultNs, ok);
        }
    },

    /** Host 0's cable pulled for 16δ, then plugged back. */
    LINK_DOWN("link-down", "ranks 0, 1 fence themselves (exit 3); the others hold exactly {0, 1}, also after the " +
        "link is back")
    {
        public Outcome run(final NetnsCluster cluster, final long deltaMs) throws InterruptedException
        {
            final long faultNs = cluster.hosts().linkDown(0);
            Thread.sleep(16 * deltaMs);
            cluster.hosts().linkUp(0);
            final Observation o = Observation.settle(cluster, deltaMs, Set.of(0, 1));
            return o.outcome(this, faultNs, o.fencedThemselves(Set.of(0, 1)) && o.agreeOn(Set.of(0, 1)));
        }
    },

    /** Hosts {0, 1, 2} cut from {3, 4} for 10δ, then healed. */
    SPLIT_5_3("split-5-3", "ranks 5, 6, 7 fence themselves; the five others hold exactly {5, 6, 7}")
    {
        public Outcome run(final NetnsCluster cluster, final long deltaMs) throws InterruptedException
        {
            final long faultNs = cluster.hosts().partition(new int[]{0, 1, 2}, new int[]{3, 4});
            Thread.sleep(10 * deltaMs);
            cluster.hosts().heal();
            final Observation o = Observation.settle(cluster, deltaMs, Set.of(5, 6, 7));
            return o.outcome(this, faultNs, o.fencedThemselves(Set.of(5, 6, 7)) && o.agreeOn(Set.of(5, 6, 7)));
        }
    },

    /** Hosts {0, 1} cut from {2, 3, 4} for 10δ, then healed. */
    SPLIT_4_4("split-4-4", "one side fences itself, the other holds exactly it")
    {
        public Outcome run(final NetnsCluster cluster, final long deltaMs) throws InterruptedException
        {
            final long faultNs = cluster.hosts().partition(new int[]{0, 1}, new int[]{2, 3, 4});
            Thread.sleep(10 * deltaMs);
            cluster.hosts().heal();
            final Set<Integer> left = Set.of(0, 1, 2, 3);
            final Set<Integer> right = Set.of(4, 5, 6, 7);
            final Observation o = Observation.settle(cluster, deltaMs, null);
            final boolean ok = o.fencedThemselves(left) && o.agreeOn(left) ||
                o.fencedThemselves(right) && o.agreeOn(right);
            return o.outcome(this, faultNs, ok);
        }
    },

    /** Host 3 can send but not hear for 16δ. */
    ONE_WAY("one-way", "at most ranks 5, 6 lost; the running nodes agree")
    {
        public Outcome run(final NetnsCluster cluster, final long deltaMs) throws InterruptedException
        {
            final long faultNs = cluster.hosts().deafen(3);
            Thread.sleep(16 * deltaMs);
            cluster.hosts().undeafen(3);
            final Observation o = Observation.settle(cluster, deltaMs, null);
            return o.outcome(this, faultNs, Set.of(5, 6).containsAll(o.exited.keySet()) &&
                o.agreeOn(o.exited.keySet()));
        }
    };

    /** Nodes per host: host groups give 5|3 and 4|4. */
    public static final int[] LAYOUT = {2, 2, 1, 2, 1};

    private final String cliName;
    private final String expected;

    NetnsScenario(final String cliName, final String expected)
    {
        this.cliName = cliName;
        this.expected = expected;
    }

    /**
     * @return the name on the command line and in the table.
     */
    public String cliName()
    {
        return cliName;
    }

    /**
     * @return what the contract expects, for the table.
     */
    public String expected()
    {
        return expected;
    }

    /**
     * @param name a {@link #cliName()}.
     * @return the scenario.
     * @throws IllegalArgumentException for an unknown name.
     */
    public static NetnsScenario fromName(final String name)
    {
        for (final NetnsScenario s : values())
        {
            if (s.cliName.equals(name.toLowerCase(Locale.ROOT)))
            {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + name + "'");
    }

    /**
     * Inject the fault into a cluster whose nodes are all up, let it settle, and judge.
     *
     * @param cluster a fresh cluster laid out as {@link #LAYOUT}.
     * @param deltaMs its δ.
     * @return the outcome.
     * @throws InterruptedException if interrupted.
     */
    public abstract Outcome run(NetnsCluster cluster, long deltaMs) throws InterruptedException;

    /**
     * One run's result.
     *
     * @param scenario    which.
     * @param asExpected  whether the contract held.
     * @param observed    what happened: exits, the running nodes' views.
     * @param fenceMs     fault to the last node that stopped itself (exit 3 or 4 with a cause of its own), -1 if none.
     * @param stabilizeMs fault to the last running node's last view change, -1 if nothing changed.
     */
    public record Outcome(NetnsScenario scenario, boolean asExpected, String observed, long fenceMs, long stabilizeMs)
    {
    }

    /**
     * The cluster once settled: exit codes, every node's last view.
     */
    static final class Observation
    {
        private static final Set<ExclusionCause> NOT_OWN =
            EnumSet.of(ExclusionCause.NOTICE, ExclusionCause.FENCED, ExclusionCause.LEFT);

        final Map<Integer, Integer> exited = new TreeMap<>();
        final Map<Integer, ViewSnapshot> views = new TreeMap<>();

        /**
         * Wait until the running nodes agree (on {@code expectedDead} if given, else on whoever exited) or 20 s
         * pass, then 4δ more for late changes, and read everything.
         */
        static Observation settle(final NetnsCluster cluster, final long deltaMs, final Set<Integer> expectedDead)
            throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() - deadline < 0)
            {
                final Set<Integer> dead = expectedDead != null ? expectedDead : exitedRanks(cluster);
                if (cluster.awaitViews(dead, 1) && exitedRanks(cluster).containsAll(dead))
                {
                    break;
                }
                Thread.sleep(50);
            }
            Thread.sleep(4 * deltaMs);
            final Observation o = new Observation();
            for (int r = 0; r < cluster.size(); r++)
            {
                if (!cluster.isAlive(r))
                {
                    cluster.process(r).waitFor(5, TimeUnit.SECONDS);
                    o.exited.put(r, cluster.process(r).exitValue());
                }
                o.views.put(r, cluster.view(r));
            }
            return o;
        }

        private static Set<Integer> exitedRanks(final NetnsCluster cluster)
        {
            final Set<Integer> exited = new TreeSet<>();
            for (int r = 0; r < cluster.size(); r++)
            {
                if (!cluster.isAlive(r))
                {
                    exited.add(r);
                }
            }
            return exited;
        }

        boolean agreeOn(final Set<Integer> dead)
        {
            for (final Map.Entry<Integer, ViewSnapshot> e : views.entrySet())
            {
                if (exited.containsKey(e.getKey()))
                {
                    continue;
                }
                final ViewSnapshot v = e.getValue();
                if (v.deadCount() != dead.size() || !dead.stream().allMatch(v::isDead))
                {
                    return false;
                }
            }
            return true;
        }

        boolean fencedThemselves(final Set<Integer> ranks)
        {
            if (!exited.keySet().equals(ranks))
            {
                return false;
            }
            for (final int r : ranks)
            {
                final ExclusionCause cause = views.get(r).exclusionCause();
                if (exited.get(r) != RingwatchConfiguration.EXIT_FENCED || cause == null || NOT_OWN.contains(cause))
                {
                    return false;
                }
            }
            return true;
        }

        long excludedAfterMs(final int rank, final long faultNs)
        {
            return TimeUnit.NANOSECONDS.toMillis(views.get(rank).excludedAtNs() - faultNs);
        }

        Outcome outcome(final NetnsScenario scenario, final long faultNs, final boolean asExpected)
        {
            long fenceNs = -1;
            long stabilizeNs = -1;
            boolean splitBrain = false;
            for (final Map.Entry<Integer, ViewSnapshot> e : views.entrySet())
            {
                final int r = e.getKey();
                final ViewSnapshot v = e.getValue();
                final ExclusionCause cause = v.exclusionCause();
                if (exited.containsKey(r) && cause != null && !NOT_OWN.contains(cause))
                {
                    fenceNs = Math.max(fenceNs, v.excludedAtNs() - faultNs);
                }
                if (!exited.containsKey(r))
                {
                    for (int d = 0; d < v.clusterSize(); d++)
                    {
                        if (v.isDead(d))
                        {
                            stabilizeNs = Math.max(stabilizeNs, v.detectedAtNs(d) - faultNs);
                            splitBrain |= !exited.containsKey(d) && views.get(d).isDead(r);
                        }
                    }
                }
            }
            final StringBuilder observed = new StringBuilder();
            observed.append("exited ").append(exited.isEmpty() ? "none" : exited.toString().replace('=', ':'));
            final Map<String, Set<Integer>> runningByView = new TreeMap<>();
            for (final Map.Entry<Integer, ViewSnapshot> e : views.entrySet())
            {
                if (!exited.containsKey(e.getKey()))
                {
                    final Set<Integer> dead = new TreeSet<>();
                    for (int d = 0; d < e.getValue().clusterSize(); d++)
                    {
                        if (e.getValue().isDead(d))
                        {
                            dead.add(d);
                        }
                    }
                    runningByView.computeIfAbsent(dead.toString(), k -> new TreeSet<>()).add(e.getKey());
                }
            }
            observed.append("; running ");
            runningByView.forEach((dead, ranks) -> observed.append(ranks).append(" hold ").append(dead).append(' '));
            for (final Map.Entry<Integer, Integer> e : exited.entrySet())
            {
                // 137: SIGKILLed by the scenario, its view frozen as it was
                observed.append("; ").append(e.getKey()).append(' ')
                    .append(e.getValue() == 137 ? "killed" : views.get(e.getKey()).stateName());
            }
            if (splitBrain)
            {
                observed.append("; SPLIT BRAIN");
            }
            return new Outcome(scenario, asExpected, observed.toString().trim(),
                fenceNs < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(fenceNs),
                stabilizeNs < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(stabilizeNs));
        }
    }
}
