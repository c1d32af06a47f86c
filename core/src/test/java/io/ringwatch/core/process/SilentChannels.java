package io.ringwatch.core.process;

import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.Notice;

/**
 * Channels and listener that do nothing, for a {@link io.ringwatch.core.protocol.DetectorNode} that only has to
 * exist (its rank, state and dead set) under a process-level test.
 */
public final class SilentChannels implements HeartbeatChannel, ControlChannel, MembershipListener
{
    public void writeHeartbeat(final int observerRank, final long counter)
    {
    }

    public long readHeartbeat(final int emitterRank)
    {
        return NO_HEARTBEAT;
    }

    public int lastWriter()
    {
        return NO_WRITER;
    }

    public void sendNewObserver(final int emitterRank)
    {
    }

    public void sendLeave(final int observerRank)
    {
    }

    public void sendNotice(final int toRank, final Notice notice)
    {
    }

    public void sendProbe(final int toRank, final long token)
    {
    }

    public void sendProbeAck(final int toRank, final long token)
    {
    }

    public void onFailure(final int rank, final long nowNs, final FailureCause cause, final int reporterRank)
    {
    }

    public void sendViewDigest(final int toRank, final long digest)
    {
    }

    public void onExcluded(final long nowNs, final ExclusionCause cause, final int reporterRank)
    {
    }

    public void onViewChange(final long viewEpoch, final int deadCount, final long nowNs)
    {
    }
}
