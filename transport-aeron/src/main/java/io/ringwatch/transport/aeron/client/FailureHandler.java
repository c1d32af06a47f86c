package io.ringwatch.transport.aeron.client;

/**
 * Called by {@link RingwatchClient#poll()}, on the polling thread, once per application rank the first time this
 * process learns it is dead.
 */
@FunctionalInterface
public interface FailureHandler
{
    /** The process died on its own and its daemon saw it. */
    int PROCESS_FAILED = 1;
    /** The process's node (its daemon) was declared dead. */
    int NODE_FAILED = 2;

    /**
     * @param process the dead application rank.
     * @param cause   {@link #PROCESS_FAILED} or {@link #NODE_FAILED}; 0 when learned from the view rather than a
     *                notification (e.g. it died before this process attached).
     */
    void onProcessFailure(int process, int cause);
}
