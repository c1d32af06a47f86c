package io.ringwatch.core.sim;

import java.util.SplittableRandom;

/**
 * How long one message takes on the simulated network. Shared by every protocol model that runs on the
 * simulator, so a comparison uses the same network.
 */
@FunctionalInterface
public interface DelayModel
{
    /**
     * @param random the run's generator.
     * @return delay in nanoseconds, at least 1.
     */
    long delayNs(SplittableRandom random);

    /**
     * The paper's model: uniform in (0, τ].
     *
     * @param tauNs τ.
     * @return the model.
     */
    static DelayModel uniform(final long tauNs)
    {
        if (tauNs <= 0)
        {
            throw new IllegalArgumentException("tau must be > 0: " + tauNs + "ns");
        }
        return (random) -> 1 + random.nextLong(tauNs);
    }

    /**
     * Uniform in (0, τ] most of the time; with probability {@code tailProbability} a Pareto delay
     * τ·U^(−1/α) instead (α ≤ 2 has infinite variance), capped at {@code capNs}. Models congestion spikes.
     *
     * @param tauNs           bound of the common case.
     * @param tailProbability share of messages in the tail.
     * @param alpha           Pareto shape, > 0.
     * @param capNs           largest delay.
     * @return the model.
     */
    static DelayModel heavyTail(final long tauNs, final double tailProbability, final double alpha, final long capNs)
    {
        if (tauNs <= 0 || tailProbability < 0 || tailProbability > 1 || alpha <= 0 || capNs < tauNs)
        {
            throw new IllegalArgumentException("bad heavy-tail delay: tau=" + tauNs + "ns p=" + tailProbability +
                " alpha=" + alpha + " cap=" + capNs + "ns");
        }
        return (random) ->
        {
            if (random.nextDouble() >= tailProbability)
            {
                return 1 + random.nextLong(tauNs);
            }
            final double u = 1.0 - random.nextDouble();
            return (long)Math.min(capNs, tauNs * Math.pow(u, -1.0 / alpha));
        };
    }
}
