package io.ringwatch.transport.aeron;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one polling wait of the live tests: a condition that must come true within a generous bound (these machines
 * are shared; the bound only decides when a test that is failing anyway gives up).
 */
public final class Await
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private Await()
    {
    }

    /**
     * @param condition polled every millisecond or so.
     * @param what      what is awaited, for the failure message.
     */
    public static void until(final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting until " + what);
            LockSupport.parkNanos(POLL_NS);
        }
    }
}
