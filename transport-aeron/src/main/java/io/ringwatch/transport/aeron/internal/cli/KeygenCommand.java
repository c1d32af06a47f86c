package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.transport.aeron.RingwatchConfiguration;
import io.ringwatch.transport.aeron.auth.KeyFile;
import io.ringwatch.transport.aeron.cli.Args;

import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * {@code keygen}: make a cluster key from {@link SecureRandom}. With {@code --out FILE} it creates a new key file
 * readable by its owner only (never overwriting one); without, it prints the key line alone, so that
 * {@code keygen >> FILE} adds a key to an existing keyring during a rotation.
 */
final class KeygenCommand
{
    private KeygenCommand()
    {
    }

    static int run(final String[] argv, final PrintStream out)
    {
        final Args args = new Args(argv, 1);
        final String outFile = args.string("--out", null);
        args.finish();
        final byte[] key = KeyFile.generate(new SecureRandom());
        if (outFile == null)
        {
            out.println(KeyFile.toLine(key));
            return 0;
        }
        final Path file = Path.of(outFile);
        KeyFile.create(file, key);
        out.println("wrote key " + KeyFile.fingerprint(key) + " to " + file + " (mode 0600); give every node a copy " +
            "(owner-only) and start them with ringwatch.jar node --key-file " + file + " (embedded: -D" +
            RingwatchConfiguration.AUTH_KEY_FILE_PROP_NAME + "=" + file + ")");
        return 0;
    }
}
