package io.ringwatch.perf;

import io.ringwatch.perf.udp.HeartbeatPathBenchmark;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code heartbeat-path}: polling the subscription against loading the receiver position, on the same UDP frames.
 */
final class HeartbeatPathCommand implements Command
{
    public String name()
    {
        return "heartbeat-path";
    }

    public String summary()
    {
        return "UDP heartbeat seen by polling the subscription vs by loading the image's receiver position";
    }

    public String usage()
    {
        return String.join(System.lineSeparator(),
            "usage: java -jar ringwatch-perf.jar heartbeat-path [--frames N] [--heartbeat-period D]",
            "  --frames N             heartbeats sent over loopback UDP (default 20000)",
            "  --heartbeat-period D   time between them (default 1ms)",
            "One embedded media driver (ringwatch's settings), one emitter thread, one observer thread spinning over",
            "three checks in rotating order: subscription poll (what ringwatch does), the rcv-hwm counter and the",
            "rcv-pos counter. Prints, per check, how long after the offer each frame was first seen (microseconds).");
    }

    public int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception
    {
        final Args flags = new Args(args, 0);
        final int frames = (int)flags.longValue("--frames", 20_000, 100, 10_000_000);
        final long periodNs = flags.durationNs(Args.HEARTBEAT_PERIOD, 1_000_000);
        flags.finish();
        if (periodNs <= 0)
        {
            throw new UsageException(Args.HEARTBEAT_PERIOD + " must be positive");
        }
        err.printf(Locale.ROOT, "heartbeat-path: %d frames every %.3f ms over loopback UDP%n", frames, periodNs / 1e6);
        final HeartbeatPathBenchmark.Result result = new HeartbeatPathBenchmark(frames, periodNs).run();
        out.println("| path | frames seen | p50 (µs) | p90 (µs) | p99 (µs) | max (µs) |");
        out.println("| --- | ---: | ---: | ---: | ---: | ---: |");
        row(out, "subscription poll (ringwatch: deposit into the slot)", result.poll());
        row(out, "receiver high-water mark (rcv-hwm counter)", result.hwm());
        row(out, "receiver position (rcv-pos counter)", result.rebuild());
        return 0;
    }

    private static void row(final PrintStream out, final String path, final Histogram h)
    {
        out.printf(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.1f | %.1f |%n", path, h.getTotalCount(),
            h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
            h.getMaxValue() / 1e3);
    }
}
