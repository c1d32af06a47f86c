package io.ringwatch.transport.aeron.cli;

import io.ringwatch.nativeconfig.CpuPinning;
import io.ringwatch.nativeconfig.TuningProfile;
import io.ringwatch.transport.aeron.DeadlineIdleStrategy;
import io.ringwatch.transport.aeron.RingwatchContext;
import io.ringwatch.transport.aeron.ThreadPinner;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Applies a native-config {@link TuningProfile} to a node's context: its idle strategy, and pinning through
 * {@link CpuPinning} when the profile pins and a CPU was given.
 */
final class Profiles
{
    private Profiles()
    {
    }

    static IdleStrategy idleStrategy(final TuningProfile profile)
    {
        if (profile == TuningProfile.LOW_LATENCY)
        {
            return new BusySpinIdleStrategy();
        }
        return new DeadlineIdleStrategy(profile.maxParkPeriodNs());
    }

    static void apply(final TuningProfile profile, final RingwatchContext ctx)
    {
        ctx.idleStrategy(idleStrategy(profile));
        if (profile.pinsAgent())
        {
            ctx.pinner(pinner());
        }
        else
        {
            ctx.cpu(-1);
        }
    }

    static ThreadPinner pinner()
    {
        return cpu ->
        {
            try
            {
                return CpuPinning.forThisHost().pinCurrentThread(cpu).toString();
            }
            catch (final RuntimeException | LinkageError ex)
            {
                return "pinning to cpu " + cpu + " impossible: " + ex;
            }
        };
    }
}
