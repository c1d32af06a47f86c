package io.ringwatch.transport.aeron;

import io.ringwatch.transport.aeron.internal.Drivers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        final File aeronDir = tmp.resolve("aeron").toFile();
        final File driverLog = tmp.resolve("driver.log").toFile();
        final Process driver = Cli.start(driverLog, "driver", "--aeron-dir", aeronDir.getPath(), "--transport", "udp");
        Process node = null;
        final File log = tmp.resolve("node.log").toFile();
        try
        {
            while (!Files.readString(driverLog.toPath()).contains(Drivers.READY_LINE))
            {
                assertTrue(driver.isAlive(), () -> "driver exited early: " + Cli.read(driverLog));
                Thread.sleep(10);
            }
            final Path cluster = tmp.resolve("cluster.conf");
            Files.writeString(cluster, "cluster-id=9\nheartbeat-period=25ms\nsuspicion-timeout=250ms\n" +
                "0 127.0.0.1 31940 31941\n1 127.0.0.1 31942 31943\n2 127.0.0.1 31944 31945\n" +
                "3 127.0.0.1 31946 31947\n");
            final File key = tmp.resolve("key").toFile();
            assertEquals(0, Cli.run(tmp.resolve("keygen.log").toFile(), "keygen", "--out", key.getPath()));
            final Path go = tmp.resolve("go");
            Files.writeString(go, "");
            // rank 3 of 4, none of its peers running: no publication of its can connect
            node = Cli.start(log, "node", "--cluster", cluster.toString(), "--rank", "3", "--transport", "udp",
                "--driver", "external", "--aeron-dir", aeronDir.getPath(), "--key-file", key.getPath(),
                "--start-after", go.toString());
            // the barrier's own wait for peers is 2 minutes: well within it, the node must be past the barrier
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            while (!Cli.read(log).contains("node rank=3"))
            {
                assertTrue(node.isAlive(), () -> "node exited: " + Cli.read(log));
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
