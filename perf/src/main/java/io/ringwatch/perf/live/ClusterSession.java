package io.ringwatch.perf.live;

import io.ringwatch.core.config.Durations;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The kill plan of one cluster start: crash one random survivor at a random moment (SIGKILL for node processes),
 * wait until every survivor holds it dead (or count a miss and stop), repeat while more than ⌈N/2⌉ survive, then
 * make one more leave (SIGTERM) to time a LEAVE's propagation. Between and during kills every survivor's view is
 * checked for live nodes declared dead.
 * <p>
 * Latencies come from the nodes' view files: each survivor stamps when it learned of a death with
 * {@code System.nanoTime()}, the clock {@link LiveCluster#kill(int)} read just before the crash (same host), so
 * how often this harness polls does not change the numbers, only how soon it moves on.
 */
final class ClusterSession
{
    private static final long POLL_MS = 1;

    private final LiveCluster cluster;
    private final DetectionConfig config;
    private final DetectionSettings settings;
    private final Random random;
    private final ConfigResult result;
    private final boolean[] signalled;
    private final boolean[] falselyDead;
    private final boolean[] exited;
    private long first;
    private long last;
    private int lastSignalled = -1;
    private long lastSignalNs;

    ClusterSession(
        final LiveCluster cluster,
        final DetectionConfig config,
        final DetectionSettings settings,
        final Random random,
        final ConfigResult result)
    {
        this.cluster = cluster;
        this.config = config;
        this.settings = settings;
        this.random = random;
        this.result = result;
        this.signalled = new boolean[config.nodes()];
        this.falselyDead = new boolean[config.nodes()];
        this.exited = new boolean[config.nodes()];
    }

    /**
     * @param killBudget at most this many kills.
     * @return kills made, a missed one included.
     */
    int run(final int killBudget) throws InterruptedException
    {
        watch(settings.settleNs());
        int made = 0;
        while (made < killBudget && survivors() > config.minAlive())
        {
            watch(pauseBeforeKillNs());
            if (survivors() <= config.minAlive())
            {
                break;
            }
            final int victim = randomSurvivor();
            final long killedAtNs = cluster.kill(victim);
            signalled[victim] = true;
            lastSignalled = victim;
            lastSignalNs = killedAtNs;
            made++;
            if (awaitEveryoneKnows(victim, killedAtNs))
            {
                if (!declaredBeforeSignal(victim, killedAtNs))
                {
                    result.recordKill(first - killedAtNs, last - killedAtNs);
                }
            }
            else
            {
                result.recordMissedKill("kill of " + victim + " not known by every survivor within " +
                    Durations.format(settings.missTimeoutNs()) + ": " + unaware(victim));
                return made;
            }
        }
        if (survivors() >= 2)
        {
            watch(pauseBeforeKillNs());
        }
        // checked again after the pause: false positives while watching may have left nobody to leave or to see it
        if (survivors() >= 2)
        {
            final int leaver = randomSurvivor();
            final long terminatedAtNs = cluster.terminate(leaver);
            signalled[leaver] = true;
            lastSignalled = leaver;
            lastSignalNs = terminatedAtNs;
            if (awaitEveryoneKnows(leaver, terminatedAtNs))
            {
                if (!declaredBeforeSignal(leaver, terminatedAtNs))
                {
                    result.recordLeave(last - terminatedAtNs);
                }
            }
            else
            {
                result.recordMissedLeave("LEAVE of " + leaver + " not known by every survivor within " +
                    Durations.format(settings.missTimeoutNs()) + ": " + unaware(leaver));
            }
        }
        return made;
    }

    /**
     * The victim was held dead before the signal: declared while live, between the last check and the signal.
     * That is a false positive, not a latency sample.
     */
    private boolean declaredBeforeSignal(final int victim, final long signalledAtNs)
    {
        if (first - signalledAtNs >= 0)
        {
            return false;
        }
        result.recordFalsePositive("live node " + victim + " declared dead " +
            (signalledAtNs - first) / 1000 + " us before its signal");
        return true;
    }

    /**
     * A random moment: the majority rule's settle period and one timeout more, so the membership a majority is counted
     * of holds only the survivors (a kill before that may leave exactly half of the old membership, which correctly
     * stops as a minority: at δ = 10 ms the former pause of 2δ stopped the survivors of n = 4 after their second
     * kill), then a random part of max(δ, 10 ms) so kills land at every phase of the heartbeat period.
     */
    private long pauseBeforeKillNs()
    {
        final long spread = Math.max(config.suspicionTimeoutNs(), TimeUnit.MILLISECONDS.toNanos(10));
        final long settle = ProtocolSettings.defaultSettlePeriodNs(config.nodes(), config.suspicionTimeoutNs());
        return settle + config.suspicionTimeoutNs() + (long)(random.nextDouble() * spread);
    }

    private void watch(final long durationNs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + durationNs;
        do
        {
            checkFalsePositives();
            Thread.sleep(POLL_MS);
        }
        while (System.nanoTime() - deadline < 0);
    }

    private boolean awaitEveryoneKnows(final int victim, final long signalledAtNs) throws InterruptedException
    {
        final long deadline = signalledAtNs + settings.missTimeoutNs();
        while (true)
        {
            checkFalsePositives();
            if (everyoneKnows(victim))
            {
                return true;
            }
            if (System.nanoTime() - deadline >= 0)
            {
                return false;
            }
            Thread.sleep(POLL_MS);
        }
    }

    private boolean everyoneKnows(final int victim)
    {
        long firstNs = Long.MAX_VALUE;
        long lastNs = Long.MIN_VALUE;
        for (int r = 0; r < config.nodes(); r++)
        {
            if (!isSurvivor(r))
            {
                continue;
            }
            final ViewSnapshot view = cluster.view(r);
            if (!view.isDead(victim))
            {
                return false;
            }
            firstNs = Math.min(firstNs, view.detectedAtNs(victim));
            lastNs = Math.max(lastNs, view.detectedAtNs(victim));
        }
        if (firstNs == Long.MAX_VALUE)
        {
            return false;
        }
        first = firstNs;
        last = lastNs;
        return true;
    }

    private String unaware(final int victim)
    {
        final StringBuilder sb = new StringBuilder("unaware ranks [");
        String sep = "";
        for (int r = 0; r < config.nodes(); r++)
        {
            if (isSurvivor(r) && !cluster.view(r).isDead(victim))
            {
                sb.append(sep).append(r);
                sep = ", ";
            }
        }
        return sb.append(']').toString();
    }

    /**
     * A live node in any survivor's dead set is a false positive, counted once; it fences itself, so it stops
     * being a survivor. A node that exits on its own is no survivor either (its code goes into the notes).
     */
    private void checkFalsePositives()
    {
        for (int r = 0; r < config.nodes(); r++)
        {
            if (!signalled[r] && !exited[r])
            {
                final String how = cluster.stopped(r);
                if (how != null)
                {
                    exited[r] = true;
                    result.recordExit("node " + r + " " + how);
                }
            }
        }
        for (int r = 0; r < config.nodes(); r++)
        {
            if (!isSurvivor(r))
            {
                continue;
            }
            final ViewSnapshot view = cluster.view(r);
            if (view.deadCount() == 0)
            {
                continue;
            }
            for (int d = 0; d < config.nodes(); d++)
            {
                if (!signalled[d] && !falselyDead[d] && view.isDead(d))
                {
                    falselyDead[d] = true;
                    result.recordFalsePositive("live node " + d + " declared dead by " + r + " (" +
                        ViewLayout.causeName(view.cause(d)) + " from " + view.reporter(d) + ") " +
                        sinceLastSignal(view.detectedAtNs(d)));
                }
            }
        }
    }

    private String sinceLastSignal(final long atNs)
    {
        return lastSignalled < 0 ? "before any signal" :
            String.format("%.3f ms after the signal to %d", (atNs - lastSignalNs) / 1e6, lastSignalled);
    }

    private boolean isSurvivor(final int r)
    {
        return !signalled[r] && !falselyDead[r] && !exited[r];
    }

    private int survivors()
    {
        int count = 0;
        for (int r = 0; r < config.nodes(); r++)
        {
            count += isSurvivor(r) ? 1 : 0;
        }
        return count;
    }

    private int randomSurvivor()
    {
        int pick = random.nextInt(survivors());
        for (int r = 0; r < config.nodes(); r++)
        {
            if (isSurvivor(r) && pick-- == 0)
            {
                return r;
            }
        }
        throw new IllegalStateException("no survivor");
    }
}
