package io.ringwatch.core.process;

/**
 * Process-level callbacks of one daemon: called once per application rank, the first time the daemon learns it is
 * dead, whether it died alone or with its node.
 */
public interface ProcessListener
{
    /** The process died on its own and a daemon saw it. */
    int PROCESS_FAILED = 1;
    /** The process's node (its daemon) was declared dead. */
    int NODE_FAILED = 2;

    /**
     * @param process  the dead application rank.
     * @param nowNs    protocol time at which this daemon learned it.
     * @param cause    {@link #PROCESS_FAILED} or {@link #NODE_FAILED}.
     * @param reporter the daemon that saw the process die, or that detected or announced the node's death.
     */
    void onProcessFailure(int process, long nowNs, int cause, int reporter);
}
