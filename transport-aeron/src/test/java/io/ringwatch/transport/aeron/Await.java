package io.ringwatch.transport.aeron;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The polling wait of the live tests: a condition that must come true within a bound, or the test fails naming it.
 */
public final class Await
{
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private Await()
    {
    }

    /**
     * @param timeoutSeconds how long it may take.
     * @param condition      polled every millisecond or so.
     * @param what           what is awaited, for the failure message.
     */
    public static void until(final long timeoutSeconds, final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting until " + what);
            LockSupport.parkNanos(POLL_NS);
        }
    }
}
