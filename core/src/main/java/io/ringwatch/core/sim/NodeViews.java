package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.spi.RankSet;

/**
 * A {@link ClusterState} over an array of real nodes: what each node believes (its dead set, ring links, the
 * incarnations it holds, whether it takes part) is read from the node; the ground truth (who stopped, paused, was
 * cut off) is the driver's own. Serves the simulator's {@link GroundTruth} and the explorer's world.
 */
public abstract class NodeViews implements ClusterState
{
    private final DetectorNode[] nodes;

    /**
     * @param nodes one per rank; the driver may replace a rank's node (a restart), the array stays.
     */
    protected NodeViews(final DetectorNode[] nodes)
    {
        this.nodes = nodes;
    }

    public final int clusterSize()
    {
        return nodes.length;
    }

    public final RankSet deadSet(final int rank)
    {
        return nodes[rank].deadSet();
    }

    public final int emitter(final int rank)
    {
        return nodes[rank].emitter();
    }

    public final int observer(final int rank)
    {
        return nodes[rank].observer();
    }

    public final long knownIncarnation(final int viewer, final int rank)
    {
        return nodes[viewer].incarnationOf(rank);
    }

    public final boolean isAdmitted(final int rank)
    {
        return Checks.takesPart(nodes[rank]);
    }
}
