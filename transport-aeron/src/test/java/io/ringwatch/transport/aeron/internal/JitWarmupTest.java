package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.protocol.ProtocolSettings;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The barrier's warm-up runs to its end on its own thread, on the node's η and δ, and says when it is done (its
 * effect on starts is measured by the demo and the detection benchmark, see docs/benchmarks.md).
 */
class JitWarmupTest
{
    @Test
    void shouldRunToItsEndOnAThreadOfItsOwn() throws InterruptedException
    {
        final ProtocolSettings settings = ProtocolSettings.of(16, TimeUnit.MILLISECONDS.toNanos(1),
            TimeUnit.MILLISECONDS.toNanos(10));
        final JitWarmup warmup = JitWarmup.start(settings);
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!warmup.done() && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(10);
        }
        assertTrue(warmup.done(), "the warm-up ends");
        assertTrue(warmup.tookNs() > 0);
    }
}
