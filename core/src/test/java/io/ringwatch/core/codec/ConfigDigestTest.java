package io.ringwatch.core.codec;

import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.config.BootSeeds;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.process.JobLayout;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigDigestTest
{
    private static final long ETA_NS = 1_000_000L;
    private static final long DELTA_NS = 10_000_000L;

    @Test
    void shouldBeAPureFunctionOfItsInputs()
    {
        assertEquals(ConfigDigest.of(7, 16, ETA_NS, DELTA_NS), ConfigDigest.of(7, 16, ETA_NS, DELTA_NS));
        assertEquals(ConfigDigest.of(FrameHeaderFlyweight.VERSION, 7, 16, ETA_NS, DELTA_NS,
            BroadcastKind.DOUBLE_HYPERCUBE, PartitionPolicy.MAJORITY), ConfigDigest.of(7, 16, ETA_NS, DELTA_NS));
    }

    @Test
    void shouldDifferWhenAnyAgreedSettingDiffers()
    {
        final Set<Integer> digests = new HashSet<>();
        digests.add(ConfigDigest.of(7, 16, ETA_NS, DELTA_NS));
        digests.add(ConfigDigest.of(8, 16, ETA_NS, DELTA_NS));
        digests.add(ConfigDigest.of(7, 17, ETA_NS, DELTA_NS));
        digests.add(ConfigDigest.of(7, 16, ETA_NS + 1, DELTA_NS));
        digests.add(ConfigDigest.of(7, 16, ETA_NS, DELTA_NS + 1));
        digests.add(ConfigDigest.of(FrameHeaderFlyweight.VERSION + 1, 7, 16, ETA_NS, DELTA_NS,
            BroadcastKind.DOUBLE_HYPERCUBE, PartitionPolicy.MAJORITY));
        digests.add(ConfigDigest.of(7, 16, ETA_NS, DELTA_NS, BroadcastKind.DOUBLE_HYPERCUBE, PartitionPolicy.NONE));
        digests.add(ConfigDigest.of(7, 16, ETA_NS, DELTA_NS, BroadcastKind.BINOMIAL_GRAPH));
        // η and δ swapped must not collide: fields have fixed places
        digests.add(ConfigDigest.of(7, 16, DELTA_NS, ETA_NS));
        // daemons of different jobs (same N, other process counts) must not agree, nor with a node without a job
        digests.add(withJob(JobLayout.uniform(16, 4)));
        digests.add(withJob(JobLayout.uniform(16, 2)));
        final int[] uneven = new int[16];
        java.util.Arrays.fill(uneven, 4);
        uneven[3] = 3;
        uneven[4] = 5;
        digests.add(withJob(JobLayout.of(uneven)));

        assertEquals(12, digests.size());
    }

    @Test
    void shouldDigestAsBeforeWithoutAJob()
    {
        assertEquals(ConfigDigest.of(7, 16, ETA_NS, DELTA_NS), ConfigDigest.of(FrameHeaderFlyweight.VERSION, 7, 16,
            ETA_NS, DELTA_NS, BroadcastKind.DOUBLE_HYPERCUBE, PartitionPolicy.MAJORITY, 0,
            BootSeeds.defaultFor(16)));
        assertEquals(withJob(JobLayout.of(4, 4)), withJob(JobLayout.uniform(2, 4)));
    }

    private static int withJob(final JobLayout job)
    {
        return ConfigDigest.of(FrameHeaderFlyweight.VERSION, 7, 16, ETA_NS, DELTA_NS, BroadcastKind.DOUBLE_HYPERCUBE,
            PartitionPolicy.MAJORITY, job.digest(), BootSeeds.defaultFor(16));
    }

    @Test
    void shouldDifferWhenNodesDisagreeOnTheSeedsAndDigestAsBeforeWithTheDefault()
    {
        assertEquals(3, BootSeeds.defaultFor(16));
        assertEquals(2, BootSeeds.defaultFor(2));
        assertEquals(ConfigDigest.of(7, 16, ETA_NS, DELTA_NS), withSeeds(16, 3));
        final Set<Integer> digests = new HashSet<>();
        for (int seeds = 1; seeds <= 16; seeds++)
        {
            digests.add(withSeeds(16, seeds));
        }
        assertEquals(16, digests.size(), "every seed count a distinct digest");
        assertEquals(ConfigDigest.of(7, 2, ETA_NS, DELTA_NS), withSeeds(2, 2), "N below the default count");
    }

    private static int withSeeds(final int clusterSize, final int seeds)
    {
        return ConfigDigest.of(FrameHeaderFlyweight.VERSION, 7, clusterSize, ETA_NS, DELTA_NS,
            BroadcastKind.DOUBLE_HYPERCUBE, PartitionPolicy.MAJORITY, 0, seeds);
    }

    @Test
    void shouldDescribeTheInputsForTheLog()
    {
        final String line = ConfigDigest.describe(7, 16, ETA_NS, DELTA_NS, BroadcastKind.DOUBLE_HYPERCUBE,
            PartitionPolicy.MAJORITY);

        final String digest = String.format("config digest %08x", ConfigDigest.of(7, 16, ETA_NS, DELTA_NS));
        assertTrue(line.startsWith(digest), line);
        assertTrue(line.contains("cluster id 7, N 16, heartbeat period 1000000ns, suspicion timeout 10000000ns, " +
            "broadcast double-hypercube, partition policy"), line);
    }
}
