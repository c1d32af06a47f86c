package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;

/**
 * The cluster the single-node unit tests place their node in: 16 ranks, η = 10, δ = 100, started at 1,000 (units are
 * whatever the test's clock says), every message recorded by a {@link RecordingChannels}.
 */
final class SixteenNodes
{
    static final int N = 16;
    static final long ETA = 10;
    static final long DELTA = 100;
    static final long START = 1_000;
    static final ProtocolSettings SETTINGS = ProtocolSettings.of(N, ETA, DELTA);

    private SixteenNodes()
    {
    }

    /**
     * @return a node of this cluster, sending through {@code io} and reporting to it.
     */
    static DetectorNode node(final int rank, final long incarnation, final RecordingChannels io)
    {
        return new DetectorNode(rank, incarnation, SETTINGS, new DoubleHypercubeSchedule(), io, io, io, START);
    }
}
