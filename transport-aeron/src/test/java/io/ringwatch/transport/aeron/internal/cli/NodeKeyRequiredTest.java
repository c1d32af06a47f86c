package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.transport.aeron.auth.AuthMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code node} fails closed: without a key file it refuses to start, saying how to make a key and how to turn
 * authentication off on purpose; off is only what was asked for.
 */
class NodeKeyRequiredTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRefuseToStartANodeWithoutAKeyAndSayHowToFixIt() throws Exception
    {
        final Path cluster = dir.resolve("cluster.txt");
        Files.writeString(cluster, "cluster-id=5\n0 127.0.0.1 20000 20001\n1 127.0.0.1 20002 20003\n");

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> NodeCommand.run(new String[]{"node", "--cluster", cluster.toString(), "--rank", "0"}));

        assertTrue(ex.getMessage().contains("java -jar ringwatch.jar keygen --out FILE"), ex.getMessage());
        assertTrue(ex.getMessage().contains("--key-file FILE"), ex.getMessage());
        assertTrue(ex.getMessage().contains("--no-auth"), ex.getMessage());
    }

    @Test
    void shouldRunUnauthenticatedOnlyWhenAskedExplicitly()
    {
        assertThrows(IllegalArgumentException.class, () -> AuthMode.resolveExplicit(null, null));
        assertEquals(AuthMode.OFF, AuthMode.resolveExplicit(AuthMode.OFF, null));
        assertEquals(AuthMode.REQUIRED, AuthMode.resolveExplicit(null, dir.resolve("cluster.key")));
        assertThrows(IllegalArgumentException.class,
            () -> AuthMode.resolveExplicit(AuthMode.OFF, dir.resolve("cluster.key")), "off and a key contradict");
    }
}
