package io.ringwatch.transport.aeron.auth;

import io.ringwatch.core.codec.ConfigDigest;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.aeron.RingwatchContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a node's context turns {@code ringwatch.auth} and {@code ringwatch.auth.key.file} into an authenticator.
 */
class AuthConfigurationTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRequireAuthenticationWheneverAKeyIsConfigured()
    {
        final Path key = newKeyFile();

        final RingwatchContext ctx = context().authKeyFile(key).conclude();

        assertEquals(AuthMode.REQUIRED, ctx.authMode());
        assertTrue(ctx.frameAuthenticator().authenticates());
        assertEquals(1, ctx.frameAuthenticator().keyCount());
        assertEquals(AuthMode.REQUIRED, context().authKeyFile(key).authMode(AuthMode.REQUIRED).conclude().authMode());
    }

    @Test
    void shouldRefuseToConcludeWithoutAKeyUnlessAuthenticationIsTurnedOffExplicitly()
    {
        assertConcludeFails(context(), "no key: an embedded node authenticates its frames unless told not to",
            "RingwatchContext.authKeyFile(path)", "RingwatchContext.authMode(AuthMode.OFF)", "keygen --out FILE");

        final RingwatchContext ctx = context().authMode(AuthMode.OFF).conclude();
        assertEquals(AuthMode.OFF, ctx.authMode());
        assertSame(FrameAuthenticator.NONE, ctx.frameAuthenticator());
    }

    @Test
    void shouldRefuseContradictionsAndBadKeyFilesAtConclude() throws IOException
    {
        assertConcludeFails(context().authMode(AuthMode.REQUIRED), "ringwatch.auth=required needs a keyring",
            "keygen --out FILE");
        assertConcludeFails(context().authMode(AuthMode.OFF).authKeyFile(newKeyFile()),
            "ringwatch.auth=off but a key is configured");
        final Path open = newKeyFile();
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertConcludeFails(context().authKeyFile(open), "readable by its group and readable by other users");
        assertThrows(IllegalArgumentException.class, () -> AuthMode.parse("maybe"));
        assertEquals(AuthMode.OFF, AuthMode.parse("off"));
    }

    @Test
    void shouldDigestTheSettingsEveryNodeMustShare()
    {
        final RingwatchContext ctx = context().authMode(AuthMode.OFF).conclude();
        assertEquals(ConfigDigest.of(5, 2, TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(10)),
            ctx.configDigest());

        final RingwatchContext otherTimeout =
            context().authMode(AuthMode.OFF).suspicionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(20)).conclude();
        assertTrue(otherTimeout.configDigest() != ctx.configDigest());
    }

    private Path newKeyFile()
    {
        final Path file = dir.resolve("key-" + System.nanoTime());
        KeyFile.create(file, KeyFile.generate(new SecureRandom()));
        return file;
    }

    private static RingwatchContext context()
    {
        return new RingwatchContext().rank(0).cluster(new ClusterConfig(5, TimeUnit.MILLISECONDS.toNanos(1),
            TimeUnit.MILLISECONDS.toNanos(10), List.of(
            new ClusterConfig.Member(0, "localhost", 20000, 20001),
            new ClusterConfig.Member(1, "localhost", 20002, 20003))));
    }

    private static void assertConcludeFails(final RingwatchContext ctx, final String... fragments)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, ctx::conclude);
        for (final String fragment : fragments)
        {
            assertTrue(ex.getMessage().contains(fragment), () -> "'" + fragment + "' not in: " + ex.getMessage());
        }
    }
}
