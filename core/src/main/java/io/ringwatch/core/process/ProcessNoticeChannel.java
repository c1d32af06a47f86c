package io.ringwatch.core.process;

/**
 * Where a daemon's process notices go: a transport sends them as PROCESS_FAILURE frames, the simulator as events.
 * Must not block the duty cycle.
 */
public interface ProcessNoticeChannel
{
    /**
     * @param toRank destination daemon.
     * @param notice valid only during this call.
     */
    void sendProcessNotice(int toRank, ProcessNotice notice);
}
