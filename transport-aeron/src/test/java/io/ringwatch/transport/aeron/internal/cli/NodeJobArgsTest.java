package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.transport.aeron.cli.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code node --job FILE}: a bad job file stops the daemon before it builds anything, naming file, line and mistake.
 */
class NodeJobArgsTest
{
    @TempDir
    Path dir;

    private String[] node(final String... extra) throws Exception
    {
        final Path cluster = dir.resolve("cluster.txt");
        Files.writeString(cluster, "cluster-id=5\n0 127.0.0.1 20000 20001\n1 127.0.0.1 20002 20003\n");
        final String[] head = {"node", "--cluster", cluster.toString(), "--rank", "0"};
        final String[] argv = new String[head.length + extra.length];
        System.arraycopy(head, 0, argv, 0, head.length);
        System.arraycopy(extra, 0, argv, head.length, extra.length);
        return argv;
    }

    private void assertRefused(final String expected, final String... extra) throws Exception
    {
        final String[] argv = node(extra);
        final UsageException ex = assertThrows(UsageException.class, () -> NodeCommand.run(argv));
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
    }

    private String job(final String text) throws Exception
    {
        final Path job = dir.resolve("job.txt");
        Files.writeString(job, text);
        return job.toString();
    }

    @Test
    void shouldRefuseABadJobFileNamingTheMistake() throws Exception
    {
        assertRefused("job.txt line 3: duplicate application rank 1 (already placed on line 2)",
            "--job", job("processes 3\nnode 0 ranks 0-1\nnode 1 ranks 1-2\n"));
        assertRefused("job.txt line 3: unknown node rank 2: the cluster has ranks 0..1",
            "--job", job("processes 3\nnode 0 ranks 0-1\nnode 2 ranks 2\n"));
        assertRefused("count mismatch: the node lines place 2 application ranks, 'processes' says 3",
            "--job", job("processes 3\nnode 0 ranks 0\nnode 1 ranks 1\n"));
        assertRefused("cannot read job file", "--job", dir.resolve("missing.txt").toString());
    }

    @Test
    void shouldRefuseProcsAndJobTogether() throws Exception
    {
        assertRefused("give --procs-per-node K (K processes on every node) or --job FILE, not both",
            "--procs-per-node", "2", "--job", job("processes 2\nnode 0 ranks 0\nnode 1 ranks 1\n"));
        assertRefused("--exec needs --procs-per-node K or --job FILE", "--exec", "true");
    }
}
