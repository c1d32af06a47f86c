package io.ringwatch.transport.aeron.internal;

import io.ringwatch.transport.aeron.RingwatchNode;

import java.util.function.Function;

/**
 * The runtime's own way into a {@link RingwatchNode}: its {@link RingwatchAgent}, which the public API does not
 * expose. For the {@code ringwatch.jar} commands, tests and benchmarks; not API.
 */
public final class NodeInternals
{
    private static volatile Function<RingwatchNode, RingwatchAgent> agentOfNode;

    private NodeInternals()
    {
    }

    /**
     * Called once, by {@link RingwatchNode}'s class initialiser, which has run before any node exists.
     *
     * @param access gives a node's agent.
     */
    public static void register(final Function<RingwatchNode, RingwatchAgent> access)
    {
        if (agentOfNode == null)
        {
            agentOfNode = access;
        }
    }

    /**
     * @param node a node.
     * @return its protocol agent: its detector, counters and control channel.
     */
    public static RingwatchAgent agent(final RingwatchNode node)
    {
        return agentOfNode.apply(node);
    }
}
