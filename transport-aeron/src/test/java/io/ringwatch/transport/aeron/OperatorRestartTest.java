package io.ringwatch.transport.aeron;

import io.ringwatch.transport.aeron.internal.IncarnationFile;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operator's restart on one host: a 3-node UDP cluster (every rank a seed), authenticated, one driver; a seed is
 * SIGKILLed and started again with the command line it was first started with, as the shipped unit file does. It
 * must be admitted everywhere under a newer incarnation: start = join holds for seeds, nobody adds {@code --join}.
 * Before, such a restart booted as a plain member, the peers dropped its frames and it stopped after its grace.
 * The second seed is killed 3δ after the first one's readmission, within the settle period: the two survivors carry on.
 * The same holds for a seed restarted without its incarnation file (a wiped aeron.dir, a new host): it asks its peers
 * before it boots, hears that they are members past their grace, and joins.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class OperatorRestartTest
{
    private static final int N = 3;

    @Test
    void shouldReadmitASeedRestartedWithTheSameCommandLine() throws Exception
    {
        final int n = N;
        final LocalCluster.Options options = options(TimeUnit.SECONDS.toNanos(3));
        try (LocalCluster cluster = LocalClusters.startAllUp(options))
        {
            for (final int victim : new int[]{1, 0})
            {
                final String[] firstCommand = commandLine(cluster, victim);
                final long before = cluster.view(victim).incarnation(victim);
                cluster.kill(victim);
                assertTrue(cluster.awaitViews(Set.of(victim), 20_000), "seed " + victim + " declared dead; logs: " +
                    LocalClusters.logs(cluster, n));

                cluster.restart(victim);
                final String[] restartCommand = commandLine(cluster, victim);
                assertTrue(Arrays.equals(firstCommand, restartCommand), "the same command line: " +
                    Arrays.toString(firstCommand) + " then " + Arrays.toString(restartCommand));
                assertFalse(Arrays.asList(restartCommand).contains("--join"), Arrays.toString(restartCommand));

                assertTrue(cluster.awaitViews(Set.of(), 60_000), "seed " + victim + " readmitted everywhere; logs: " +
                    LocalClusters.logs(cluster, n));
                final long after = LocalClusters.assertAdmittedEverywhere(cluster, n, victim);
                assertTrue(after > before, "seed " + victim + " came back under a newer incarnation: " + before +
                    " then " + after);
                // a second crash right after the join (issue 29): 3δ after every view admitted the joiner, within the
                // settle period (5δ), the survivors carry on; under the old rule rank 2 stopped as a minority
                Thread.sleep(3 * TimeUnit.NANOSECONDS.toMillis(options.suspicionTimeoutNs()));
            }
            for (int r = 0; r < n; r++)
            {
                assertTrue(cluster.process(r).isAlive(), "rank " + r + " runs; logs: " + LocalClusters.logs(cluster, n));
            }
        }
    }

    @Test
    void shouldAdmitASeedRestartedWithoutItsIncarnationFileWithTheSameCommandLine() throws Exception
    {
        admitsASeedRestartedWithoutItsIncarnationFile(TransportMode.UDP);
    }

    @Test
    void shouldAdmitASeedRestartedWithoutItsIncarnationFileOverSharedMemory() throws Exception
    {
        LongCases.onlyWhenAsked("the restart without an incarnation file over IPC (the UDP case runs)");
        admitsASeedRestartedWithoutItsIncarnationFile(TransportMode.IPC);
    }

    private static void admitsASeedRestartedWithoutItsIncarnationFile(final TransportMode transport) throws Exception
    {
        final int n = N;
        final int victim = 1;
        // a grace of 4 s gives the restarted seed 2 s to hear its peers' answers (they read hellos once a second)
        final LocalCluster.Options options = options(TimeUnit.SECONDS.toNanos(4)).transport(transport);
        try (LocalCluster cluster = LocalClusters.startAllUp(options))
        {
            final String[] firstCommand = commandLine(cluster, victim);
            final long before = cluster.view(victim).incarnation(victim);
            cluster.kill(victim);
            assertTrue(cluster.awaitViews(Set.of(victim), 20_000), "seed " + victim + " declared dead; logs: " +
                LocalClusters.logs(cluster, n));
            // what a wiped aeron.dir or a new host loses: the record that this rank ran here before
            final Path record = IncarnationFile.fileFor(cluster.aeronDir(cluster.hostOf(victim)).getPath(),
                options.clusterId(), victim);
            Files.delete(record);

            final long restartedAtNs = System.nanoTime();
            cluster.restart(victim);
            assertTrue(Arrays.equals(firstCommand, commandLine(cluster, victim)), Arrays.toString(firstCommand));
            assertTrue(cluster.awaitViews(Set.of(), 60_000), "seed " + victim + " readmitted everywhere; logs: " +
                LocalClusters.logs(cluster, n));
            final long after = LocalClusters.assertAdmittedEverywhere(cluster, n, victim);
            assertTrue(after > before, "a newer incarnation: " + before + " then " + after);
            System.out.printf("OperatorRestartTest (%s): seed %d restarted without its incarnation file, admitted " +
                "everywhere %d ms after its restart, incarnation %d then %d%n", transport, victim,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartedAtNs), before, after);
            final String log = cluster.log(victim);
            assertTrue(log.contains("joining, not booting as a seed: this rank has no incarnation file here, and " +
                "rank "), log);
            for (int r = 0; r < n; r++)
            {
                assertTrue(cluster.process(r).isAlive(), "rank " + r + " runs; logs: " + LocalClusters.logs(cluster, n));
            }
        }
    }

    /**
     * Every rank a seed, over UDP, authenticated, one driver: the operator's cluster on one host.
     */
    private static LocalCluster.Options options(final long graceNs)
    {
        return new LocalCluster.Options()
            .nodes(N).transport(TransportMode.UDP).heartbeatPeriodNs(TimeUnit.MILLISECONDS.toNanos(25))
            .suspicionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(250)).graceNs(graceNs).authenticated(true);
    }

    private static String[] commandLine(final LocalCluster cluster, final int rank)
    {
        final String[] args = cluster.process(rank).info().arguments().orElseThrow();
        // from the subcommand on: the JVM options before it are the launcher's, not the operator's
        final int node = Arrays.asList(args).indexOf("node");
        assertTrue(node >= 0, Arrays.toString(args));
        return Arrays.copyOfRange(args, node, args.length);
    }
}
