package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ProtocolSettingsTest
{
    private static final ProtocolSettings BASE = ProtocolSettings.of(64, 10, 100);

    @Test
    void shouldChangeOnlyTheNamedFieldInEachCopy()
    {
        final ProtocolSettings b = BASE;
        assertEquals(canonical(b, 50, 0, 100, PartitionPolicy.MAJORITY, 10, 1000), b);
        assertEquals(canonical(b, 50, 7, 100, PartitionPolicy.MAJORITY, 10, 1000), b.withStartupGraceNs(7));
        assertEquals(canonical(b, 30, 0, 100, PartitionPolicy.MAJORITY, 10, 1000), b.withPauseThresholdNs(30));
        assertEquals(canonical(b, 50, 0, 9, PartitionPolicy.MAJORITY, 10, 1000), b.withFenceIntervalNs(9));
        assertEquals(
            canonical(b, 50, 0, 100, PartitionPolicy.NONE, 10, 1000), b.withPartitionPolicy(PartitionPolicy.NONE));
        assertEquals(canonical(b, 50, 0, 100, PartitionPolicy.MAJORITY, 0, 1000), b.withProbeTimeoutNs(0));
        assertEquals(canonical(b, 50, 0, 100, PartitionPolicy.MAJORITY, 10, 500), b.withSettlePeriodNs(500));
    }

    @Test
    void shouldValidateWhatTheBuilderBuilds()
    {
        final ProtocolSettings.Builder builder = BASE.toBuilder().probeTimeoutNs(100);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
        assertEquals("probeTimeoutNs must be in [0, suspicionTimeoutNs): 100", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BASE.withPartitionPolicy(null));
        assertEquals(BASE.withStartupGraceNs(5).withFenceIntervalNs(9),
            BASE.toBuilder().startupGraceNs(5).fenceIntervalNs(9).build());
    }

    // the defaults of ProtocolSettings.of(64, 10, 100): pause δ/2 = 50, probe min(η, δ/4) = 10, settle (6 + 4)·δ
    private static ProtocolSettings canonical(
        final ProtocolSettings base,
        final long pauseNs,
        final long graceNs,
        final long fenceNs,
        final PartitionPolicy policy,
        final long probeNs,
        final long settleNs)
    {
        return new ProtocolSettings(base.clusterSize(), base.heartbeatPeriodNs(), base.suspicionTimeoutNs(),
            pauseNs, graceNs, base.dedupCapacity(), fenceNs, policy, probeNs, settleNs, base.viewDigestPeriodNs(), 0);
    }
}
