package io.ringwatch.transport.aeron;

/**
 * Who runs a node's {@link RingwatchAgent} once {@link RingwatchNode#launch(RingwatchContext)} has built it.
 */
public enum ThreadingMode
{
    /**
     * An {@code AgentRunner} on a thread of its own with the context's idle strategy; pinning and real-time
     * priority apply to that thread. The default.
     */
    DEDICATED,

    /**
     * An {@code AgentInvoker}, started by {@code launch}, so the agent's {@code onStart} (the protocol's clocks, and
     * pinning if a CPU is set) runs on the launching thread; the caller then runs duty cycles with
     * {@code node.invoker().invoke()}. For tests and for embedding a node in an existing duty cycle.
     */
    INVOKER,

    /**
     * Nothing: the caller hosts {@code node.dutyCycleAgent()}, e.g. with other nodes in a {@code CompositeAgent}, and its
     * {@code onStart} runs wherever the host starts it.
     */
    UNSTARTED;

    /**
     * @param name dedicated, invoker or unstarted, any case.
     * @return the mode.
     * @throws IllegalArgumentException naming the bad value.
     */
    public static ThreadingMode parse(final String name)
    {
        for (final ThreadingMode mode : values())
        {
            if (mode.name().equalsIgnoreCase(name))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException(RingwatchConfiguration.THREADING_MODE_PROP_NAME +
            " must be dedicated, invoker or unstarted: " + name);
    }
}
