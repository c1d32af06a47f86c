package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.process.ProcessNotice;

/**
 * What {@link RingwatchAgent} hands the process level (two-level detection), when a daemon has one: a share of the
 * duty cycle, the PROCESS_FAILURE frames it decodes, and the node failures its protocol reports. Agent thread only.
 */
public interface ProcessLevelHook
{
    /**
     * @param nowNs the duty cycle's time.
     * @return work done.
     */
    int doWork(long nowNs);

    /**
     * @param notice   decoded PROCESS_FAILURE frame, valid during the call.
     * @param fromRank sender.
     * @param nowNs    the duty cycle's time.
     */
    void onProcessNotice(ProcessNotice notice, int fromRank, long nowNs);

    /**
     * @param deadRank node the protocol now holds dead.
     * @param nowNs    protocol time.
     * @param reporter who detected or announced it.
     */
    void onNodeFailure(int deadRank, long nowNs, int reporter);
}
