package io.ringwatch.perf.udp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The head-to-head runs over a real driver and sees frames on every path; how fast is the benchmark's to say.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HeartbeatPathBenchmarkTest
{
    @Test
    void shouldSeeFramesOnEveryPath() throws Exception
    {
        final HeartbeatPathBenchmark.Result result = new HeartbeatPathBenchmark(300, 1_000_000).run();

        // frames arriving together count once per path, so fewer samples than frames is fine, none is not
        assertTrue(result.poll().getTotalCount() > 0, "poll saw frames");
        assertTrue(result.hwm().getTotalCount() > 0, "rcv-hwm moved");
        assertTrue(result.rebuild().getTotalCount() > 0, "rcv-pos moved");
        assertTrue(result.poll().getTotalCount() <= 300, "at most one sample per frame");
    }
}
