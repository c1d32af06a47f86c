package io.ringwatch.nativeconfig;

/**
 * Outcome of a pinning attempt. A failure carries the reason an operator can act on.
 *
 * @param pinned true if the thread now runs only on {@code cpu}.
 * @param cpu    the CPU asked for.
 * @param reason why pinning did not happen; empty when {@code pinned}.
 */
public record PinResult(boolean pinned, int cpu, String reason)
{
    /**
     * @param cpu the CPU the thread is now bound to.
     * @return a success.
     */
    public static PinResult pinned(final int cpu)
    {
        return new PinResult(true, cpu, "");
    }

    /**
     * @param cpu    the CPU asked for.
     * @param reason what prevented it.
     * @return a failure.
     */
    public static PinResult failed(final int cpu, final String reason)
    {
        return new PinResult(false, cpu, reason);
    }

    public String toString()
    {
        return pinned ? "pinned to CPU " + cpu : "not pinned to CPU " + cpu + ": " + reason;
    }
}
