package io.ringwatch.perf.jmh;

import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.Notice;

/**
 * Drops control messages and counts them, so a teardown can tell whether a measured path sent anything.
 */
final class CountingControlChannel implements ControlChannel
{
    long newObserversSent;
    long leavesSent;
    long noticesSent;
    long probesSent;
    long viewDigestsSent;

    public void sendNewObserver(final int emitterRank)
    {
        newObserversSent++;
    }

    public void sendLeave(final int observerRank)
    {
        leavesSent++;
    }

    public void sendProbe(final int toRank, final long token)
    {
        probesSent++;
    }

    public void sendProbeAck(final int toRank, final long token)
    {
        probesSent++;
    }

    public void sendViewDigest(final int toRank, final long digest)
    {
        viewDigestsSent++;
    }

    public void sendNotice(final int toRank, final Notice notice)
    {
        noticesSent++;
    }
}
