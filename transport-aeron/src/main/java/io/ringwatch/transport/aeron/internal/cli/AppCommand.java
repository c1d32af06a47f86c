package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.client.RingwatchClient;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code app --dir DIR [--spin]}: the application process of the two-level demo, launched by its daemon
 * ({@code node --exec}). It attaches, says so in {@code DIR/ready-<rank>} (its pid), polls for failures from its own
 * loop (busy-spinning or sleeping 100 µs), and when {@code DIR/finish} appears writes every failure it learned with
 * the time it learned it to {@code DIR/result-<rank>}, says it finished, and exits 0: a departure.
 */
final class AppCommand
{
    private AppCommand()
    {
    }

    static int run(final String[] argv) throws IOException
    {
        final Args args = new Args(argv, 1, "--spin");
        final Path dir = Path.of(args.string("--dir", "."));
        final boolean spin = args.switchOn("--spin");
        args.finish();

        final long[] learnedAtNs = new long[1 << 16];
        try (RingwatchClient client = RingwatchClient.attachFromEnvironment((process, cause) ->
        {
            if (process < learnedAtNs.length)
            {
                learnedAtNs[process] = System.nanoTime();
            }
        }))
        {
            // written aside and renamed, so the demo never reads a half-written file
            final Path readyTmp = dir.resolve("ready-" + client.rank() + ".tmp");
            Files.writeString(readyTmp, Long.toString(ProcessHandle.current().pid()));
            Files.move(readyTmp, dir.resolve("ready-" + client.rank()));
            final Path finish = dir.resolve("finish");
            long nextCheckNs = System.nanoTime();
            while (true)
            {
                client.poll();
                final long nowNs = System.nanoTime();
                if (nowNs - nextCheckNs >= 0)
                {
                    nextCheckNs = nowNs + TimeUnit.MILLISECONDS.toNanos(20);
                    if (Files.exists(finish))
                    {
                        break;
                    }
                }
                if (spin)
                {
                    Thread.onSpinWait();
                }
                else
                {
                    LockSupport.parkNanos(100_000);
                }
            }
            client.poll();
            client.ack();
            final int[] acked = new int[client.ackedCount()];
            client.getAcked(acked);
            final StringBuilder out = new StringBuilder();
            for (final int process : acked)
            {
                out.append(process).append(' ').append(learnedAtNs[process]).append('\n');
            }
            final Path tmp = dir.resolve("result-" + client.rank() + ".tmp");
            Files.writeString(tmp, out);
            Files.move(tmp, dir.resolve("result-" + client.rank()));
            client.finish();
        }
        return 0;
    }
}
