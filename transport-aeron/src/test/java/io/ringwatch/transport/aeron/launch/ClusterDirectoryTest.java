package io.ringwatch.transport.aeron.launch;

import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.aeron.internal.StartBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterDirectoryTest
{
    @TempDir
    File tmp;

    @Test
    void shouldKeepEveryFileBelowItsRoot()
    {
        final ClusterDirectory dir = new ClusterDirectory(new File(tmp, "c"));

        for (final File f : List.of(dir.aeronDir(), dir.clusterFile(), dir.logDir(), dir.driverLog(), dir.nodeLog(3),
            dir.startFile(), dir.readyFile(3)))
        {
            assertTrue(f.toPath().startsWith(dir.root().toPath()), f.toString());
        }
        assertNotEquals(dir.nodeLog(0), dir.nodeLog(1));
        assertNotEquals(dir.nodeLog(0), dir.driverLog());
    }

    @Test
    void shouldNameTheReadyFileAsTheWaitingNodeDoes()
    {
        final ClusterDirectory dir = new ClusterDirectory(new File(tmp, "c"));

        assertEquals(StartBarrier.readyFile(dir.startFile().toPath(), 7).toFile(), dir.readyFile(7));
    }

    @Test
    void shouldWriteAClusterFileTheNodesReadBackAndDeleteEverything() throws Exception
    {
        final ClusterDirectory dir = new ClusterDirectory(new File(tmp, "c"));
        final ClusterConfig cluster = new ClusterConfig(9, 2_000_000, 20_000_000, FreePorts.localhostMembers(3));

        dir.create(cluster);
        assertTrue(dir.logDir().isDirectory());
        assertEquals(cluster, ClusterConfig.load(dir.clusterFile().toPath()));
        assertEquals(1, io.ringwatch.transport.aeron.auth.KeyFile.load(dir.keyFile().toPath()).size(),
            "a fresh owner-only key for the nodes");

        Files.writeString(dir.nodeLog(1).toPath(), "hello");
        assertEquals("hello", ClusterDirectory.read(dir.nodeLog(1)));
        dir.delete();
        assertFalse(dir.root().exists());
    }

    @Test
    void shouldRefuseToReuseADirectoryAnotherClusterCreated()
    {
        final ClusterDirectory dir = new ClusterDirectory(new File(tmp, "c"));
        final ClusterConfig cluster = new ClusterConfig(1, -1, -1, FreePorts.localhostMembers(2));
        dir.create(cluster);

        assertThrows(IllegalStateException.class, () -> dir.create(cluster));
    }

    @Test
    void shouldSayWhenALogDoesNotExistInsteadOfThrowing()
    {
        assertEquals("(no log)", ClusterDirectory.read(new File(tmp, "absent.log")));
    }

    @Test
    void shouldGiveEachCallAFreshDirectoryNotCreatedYet()
    {
        final ClusterDirectory a = ClusterDirectory.unique("ringwatch-test");
        final ClusterDirectory b = ClusterDirectory.unique("ringwatch-test");

        assertNotEquals(a.root(), b.root());
        assertFalse(a.root().exists());
        assertEquals(ClusterDirectory.defaultParent(), a.root().getParentFile());
    }
}
