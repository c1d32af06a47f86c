package io.ringwatch.core.sim;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NetworkTest
{
    private static final long TAU_NS = 1_000;

    @Test
    void shouldDelayEveryMessageWithinTauWithoutOnePort()
    {
        final long seed = 3;
        final Network network = new Network(new SplittableRandom(seed), 4, TAU_NS, 0, false);
        for (int i = 0; i < 10_000; i++)
        {
            final long delayNs = network.deliveryTimeNs(500, 0, 1) - 500;
            assertTrue(delayNs >= 1 && delayNs <= TAU_NS, "seed=" + seed + " delay=" + delayNs);
        }
    }

    @Test
    void shouldSerializeSendsOfOneNodeUnderOnePort()
    {
        final long seed = 4;
        final Network network = new Network(new SplittableRandom(seed), 8, TAU_NS, 0, true);
        long previousNs = 0;
        long totalDelayNs = 0;
        for (int to = 1; to < 8; to++)
        {
            final long arrivedNs = network.deliveryTimeNs(0, 0, to);
            assertTrue(arrivedNs > previousNs, "seed=" + seed);
            totalDelayNs += arrivedNs - previousNs;
            previousNs = arrivedNs;
        }
        // seven back-to-back transfers from one port end at the sum of their delays
        assertEquals(previousNs, totalDelayNs, "seed=" + seed);
        assertTrue(previousNs <= 7 * TAU_NS, "seed=" + seed);
    }

    @Test
    void shouldSerializeReceivesOfOneNodeUnderOnePort()
    {
        final long seed = 5;
        final Network network = new Network(new SplittableRandom(seed), 8, TAU_NS, 0, true);
        long previousNs = 0;
        for (int from = 1; from < 8; from++)
        {
            final long arrivedNs = network.deliveryTimeNs(0, from, 0);
            assertTrue(arrivedNs > previousNs, "seed=" + seed + " two receives overlapped");
            previousNs = arrivedNs;
        }
        assertTrue(previousNs > TAU_NS, "seed=" + seed + " seven receives cannot all fit in one tau");
    }

    @Test
    void shouldNotHoldSenderBackWhenReceiverIsBusy()
    {
        final Network network = new Network(new SplittableRandom(6), 8, TAU_NS, 0, true);
        for (int from = 1; from < 8; from++)
        {
            network.deliveryTimeNs(0, from, 0);
        }

        network.deliveryTimeNs(0, 1, 0);
        final long toIdleNs = network.deliveryTimeNs(0, 1, 2);

        // receiver 0 is booked for about 3.5 tau; sender 1 only waits for its own two earlier transfers
        assertTrue(toIdleNs <= 3 * TAU_NS, "sender 1 waited for receiver 0's queue: " + toIdleNs);
    }

    @Test
    void shouldLoseAboutTheConfiguredFraction()
    {
        final long seed = 7;
        final Network network = new Network(new SplittableRandom(seed), 2, TAU_NS, 0.25, false);
        int lost = 0;
        for (int i = 0; i < 40_000; i++)
        {
            if (network.deliveryTimeNs(0, 0, 1) == Network.LOST)
            {
                lost++;
            }
        }
        assertTrue(lost > 9_000 && lost < 11_000, "seed=" + seed + " lost=" + lost);
    }
}
