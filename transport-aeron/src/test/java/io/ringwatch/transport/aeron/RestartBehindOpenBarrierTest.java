package io.ringwatch.transport.aeron;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A supervised restart runs the launcher's command line again, start barrier included, long after the barrier opened.
 * Such a node must not wait for every peer's connection: in the 30-minute nemesis a rank restarted while another
 * host's driver was down waited at its barrier for minutes (a publication to a host without a driver never connects)
 * and the cluster was not whole again within the run's bound.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RestartBehindOpenBarrierTest
{
    @TempDir
    Path tmp;

    @Test
    void shouldGoOnWithoutItsPeersWhenTheBarrierIsAlreadyOpen() throws Exception
    {
        final Process driver = Cli.startUdpDriver(tmp);
        Process node = null;
        final File log = tmp.resolve("node.log").toFile();
        try
        {
            final Path go = tmp.resolve("go");
            Files.writeString(go, "");
            // rank 3 of 4, none of its peers running: no publication of its can connect
            final List<String> args = new ArrayList<>(List.of("node", "--rank", "3", "--start-after", go.toString()));
            args.addAll(Cli.udpClusterArgs(tmp, 4, 31940));
            node = Cli.start(log, args.toArray(new String[0]));
            // the barrier's own wait for peers is 2 minutes: well within it, the node must be past the barrier
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            while (!Cli.read(log).contains("node rank=3"))
            {
                final Process running = node;
                assertTrue(running.isAlive(), () -> "node exited: " + Cli.read(log));
                assertTrue(System.nanoTime() - deadline < 0, () -> "still held at its barrier: " + Cli.read(log));
                Thread.sleep(50);
            }
            final String out = Cli.read(log);
            assertTrue(out.contains("already open: a restart"), out);
        }
        finally
        {
            if (node != null)
            {
                node.destroyForcibly();
                node.waitFor();
            }
            driver.destroyForcibly();
            driver.waitFor();
        }
    }
}
