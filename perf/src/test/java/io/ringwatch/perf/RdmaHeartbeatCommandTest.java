package io.ringwatch.perf;

import io.ringwatch.transport.rdma.RdmaDevices;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

class RdmaHeartbeatCommandTest
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void shouldSkipWithTheReasonWhereRdmaIsUnusable()
    {
        final RdmaDevices.Availability availability = RdmaDevices.probe();
        assumeFalse(availability.usable(), "this host has RDMA: the benchmark would run, not skip");

        assertEquals(0, run("rdma-heartbeat", "--beats", "10", "--trials", "1"), err.toString());
        assertEquals("rdma-heartbeat: skipped, RDMA unusable here: " + availability.reason(),
            out.toString(StandardCharsets.UTF_8).strip());
    }

    @Test
    void shouldRejectAPeriodNotBelowDelta()
    {
        assertEquals(2, run("rdma-heartbeat", "--heartbeat-period", "2ms", "--suspicion-timeout", "1ms"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--heartbeat-period < --suspicion-timeout"),
            err.toString());
    }
}
