package io.ringwatch.perf;

import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;
import io.ringwatch.transport.rdma.RdmaDevices;
import io.ringwatch.transport.rdma.RdmaEndpoint;
import io.ringwatch.transport.rdma.RdmaHeartbeats;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.net.InetAddress;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code rdma-heartbeat}: over this host's RDMA device, the rdma_cm connect time that pre-connection keeps off the
 * mending path, the write-to-observed latency of the heartbeat word, and detection delay. Gated like the hardware
 * tests: where RDMA is unusable it prints why and measures nothing.
 * <pre>
 *   rank 0 (emitter) --RDMA WRITE, HCA loopback--> rank 1's registered slot <-- acquire load, same thread
 * </pre>
 * One thread plays both nodes so one clock times both ends: it posts a beat and spins on the observer's slot until
 * the word changes. For detection it beats every η, stops, and checks the slot until no progress for δ.
 */
final class RdmaHeartbeatCommand implements Command
{
    public String name()
    {
        return "rdma-heartbeat";
    }

    public String summary()
    {
        return "RDMA WRITE heartbeat: connect time, write-to-observed latency, detection delay (needs RDMA)";
    }

    public String usage()
    {
        return String.join(System.lineSeparator(),
            "usage: java -jar ringwatch-perf.jar rdma-heartbeat [--beats N] [--trials K] [--heartbeat-period D]",
            "                                                   [--suspicion-timeout D] [--address IP] [--port P]",
            "  --beats N              heartbeats timed write-to-observed (default 100000)",
            "  --trials K             detections timed (default 50)",
            "  --heartbeat-period D   η between beats (default 100us)",
            "  --suspicion-timeout D  δ for the detection trials (default 1ms)",
            "  --address IP           IPv4 address of the RDMA interface (default: the first one found)",
            "  --port P               first rdma_cm port used (default 27471; two are used)",
            "Runs over this host's RDMA device (HCA loopback or Soft-RoCE).",
            "Without usable RDMA it prints why and exits 0.");
    }

    public int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception
    {
        final Args flags = new Args(args, 0);
        final int beats = (int)flags.longValue("--beats", 100_000, 1, 100_000_000);
        final int trials = (int)flags.longValue("--trials", 50, 1, 100_000);
        final long periodNs = flags.durationNs("--heartbeat-period", TimeUnit.MICROSECONDS.toNanos(100));
        final long deltaNs = flags.durationNs("--suspicion-timeout", TimeUnit.MILLISECONDS.toNanos(1));
        final String addressFlag = flags.string("--address", null);
        final int port = (int)flags.longValue("--port", 27_471, 1, 65_534);
        flags.finish();
        if (periodNs <= 0 || deltaNs <= periodNs)
        {
            throw new UsageException("need 0 < --heartbeat-period < --suspicion-timeout");
        }

        final RdmaDevices.Availability availability = RdmaDevices.probe();
        if (!availability.usable())
        {
            out.println("rdma-heartbeat: skipped, RDMA unusable here: " + availability.reason());
            return 0;
        }
        final InetAddress address = addressFlag != null ?
            InetAddress.getByName(addressFlag) : RdmaDevices.firstIpv4Address(availability.netDevices());
        if (address == null)
        {
            out.println("rdma-heartbeat: skipped, no IPv4 address on RDMA interfaces " +
                availability.netDevices() + "; pass --address");
            return 0;
        }

        final RdmaEndpoint[] endpoints = {
            new RdmaEndpoint(address.getHostAddress(), port), new RdmaEndpoint(address.getHostAddress(), port + 1) };
        // both ends in this process share a key of their own, so the connection handshake runs as in a cluster
        final byte[] key = new byte[FrameAuthenticator.KEY_LENGTH];
        new SecureRandom().nextBytes(key);
        try (RdmaHeartbeats emitter = new RdmaHeartbeats(new RdmaHeartbeats.Context().rank(0).endpoints(endpoints)
                .authenticator(FrameAuthenticator.withKey(key)));
            RdmaHeartbeats observer = new RdmaHeartbeats(new RdmaHeartbeats.Context().rank(1).endpoints(endpoints)
                .authenticator(FrameAuthenticator.withKey(key))))
        {
            final long connectDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!emitter.isConnectedTo(1))
            {
                final long now = System.nanoTime();
                if (now - connectDeadline >= 0)
                {
                    err.println("rdma-heartbeat: no connection within 10 s: " + emitter.lastError() + " / " +
                        observer.lastError());
                    return 1;
                }
                emitter.poll(now);
                observer.poll(now);
            }
            err.printf(Locale.ROOT, "rdma-heartbeat: %s, %d beats every %.1f us, %d detections at delta %.3f ms%n",
                address.getHostAddress(), beats, periodNs / 1e3, trials, deltaNs / 1e6);

            final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(1), 3);
            long counter = 0;
            for (int i = 0; i < beats; i++)
            {
                final long startNs = System.nanoTime();
                emitter.writeHeartbeat(1, ++counter);
                while (observer.readHeartbeat(0) != counter)
                {
                    Thread.onSpinWait();
                }
                latency.recordValue(System.nanoTime() - startNs);
                emitter.poll(System.nanoTime());
                observer.poll(System.nanoTime());
                final long nextNs = startNs + periodNs;
                while (System.nanoTime() - nextNs < 0)
                {
                    Thread.onSpinWait();
                }
            }

            final Histogram detection = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            for (int t = 0; t < trials; t++)
            {
                // stop at a different phase of the beat grid each trial
                counter = detectOnce(emitter, observer, counter, periodNs, deltaNs, t * periodNs / trials, detection);
            }

            out.printf(Locale.ROOT, "rdma_cm connect (what a mend onto a pre-connected observer skips): " +
                "mean %.1f us, max %.1f us over %d connection(s)%n",
                emitter.counters().connectTimeTotalNs() / 1e3 / Math.max(1, emitter.counters().connectionsEstablished()),
                emitter.counters().connectTimeMaxNs() / 1e3, emitter.counters().connectionsEstablished());
            out.println("| measure | count | p50 (us) | p90 (us) | p99 (us) | p99.9 (us) | max (us) |");
            out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
            row(out, "post to observed in the slot", latency);
            row(out, "last beat to detection (delta " + deltaNs / 1_000 + " us)", detection);
            out.printf(Locale.ROOT, "completion errors %d, beats dropped %d%n", emitter.counters().completionErrors(),
                emitter.counters().beatsDroppedNotConnected() + emitter.counters().beatsDroppedQueueFull());
            return emitter.counters().completionErrors() == 0 ? 0 : 1;
        }
    }

    private static long detectOnce(
        final RdmaHeartbeats emitter,
        final RdmaHeartbeats observer,
        final long fromCounter,
        final long periodNs,
        final long deltaNs,
        final long stopPhaseNs,
        final Histogram detection)
    {
        long counter = fromCounter;
        long lastSeen = HeartbeatChannel.NO_HEARTBEAT;
        long lastProgressNs = System.nanoTime();
        final long stopNs = lastProgressNs + 4 * deltaNs + stopPhaseNs;
        long nextBeatNs = lastProgressNs;
        long lastWriteNs = lastProgressNs;
        while (true)
        {
            final long now = System.nanoTime();
            if (now - stopNs < 0 && now - nextBeatNs >= 0)
            {
                emitter.writeHeartbeat(1, ++counter);
                lastWriteNs = now;
                nextBeatNs += periodNs;
            }
            emitter.poll(now);
            observer.poll(now);
            final long seen = observer.readHeartbeat(0);
            if (seen != lastSeen)
            {
                lastSeen = seen;
                lastProgressNs = now;
            }
            else if (now - lastProgressNs >= deltaNs)
            {
                detection.recordValue(now - lastWriteNs);
                return counter;
            }
        }
    }

    private static void row(final PrintStream out, final String what, final Histogram h)
    {
        out.printf(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f |%n", what, h.getTotalCount(),
            h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
            h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3);
    }
}
