package io.ringwatch.transport.aeron;

/**
 * Pins the calling thread to a CPU. Kept as a seam so the runtime does not care which library does the pinning.
 */
@FunctionalInterface
public interface ThreadPinner
{
    /**
     * @param cpu the CPU.
     * @return a one-line account of what happened, e.g. "pinned to cpu 3" or why pinning was impossible.
     */
    String pinCurrentThread(int cpu);

    /**
     * A pinner that cannot pin, and says so.
     */
    ThreadPinner UNAVAILABLE = cpu -> "pinning to cpu " + cpu + " unavailable: no affinity support configured";
}
