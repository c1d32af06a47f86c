package io.ringwatch.core.protocol;

import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.RankArray;

/**
 * What the parts of one {@link DetectorNode} share, handed to each as one object: the node's rank, its view and role
 * ({@link LocalView}, the one writer of D), D itself for reading, the ring over D, the heartbeat observation, the
 * membership (incarnations, joins), the notices it starts and forwards, the control channel and the counters. A part
 * takes its other collaborators one by one, so its constructor says what it depends on beyond the common ground.
 */
final class Shared
{
    final int rank;
    final int clusterSize;
    final LocalView view;
    final RankArray dead;
    final Ring ring;
    final Observation observation;
    final Membership membership;
    final Notices notices;
    final ControlChannel control;
    final ProtocolCounters counters;

    Shared(
        final LocalView view,
        final RankArray dead,
        final Ring ring,
        final Observation observation,
        final Membership membership,
        final Notices notices,
        final ControlChannel control,
        final ProtocolCounters counters)
    {
        this.rank = ring.rank();
        this.clusterSize = ring.clusterSize();
        this.view = view;
        this.dead = dead;
        this.ring = ring;
        this.observation = observation;
        this.membership = membership;
        this.notices = notices;
        this.control = control;
        this.counters = counters;
    }
}
