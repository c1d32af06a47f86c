package io.ringwatch.core.protocol;

/**
 * One node's counts, indexed by {@link ProtocolCounter}: written by the node and its parts on the protocol's thread,
 * read by whoever drives it (the simulator, the live agent publishing them to the counters file). Plain longs:
 * no allocation, no ordering; the driver publishes them from its own thread.
 */
public final class ProtocolCounters
{
    private final long[] values = new long[ProtocolCounter.all().length];

    /**
     * @param counter what to read.
     * @return its value so far.
     */
    public long get(final ProtocolCounter counter)
    {
        return values[counter.ordinal()];
    }

    void increment(final ProtocolCounter counter)
    {
        values[counter.ordinal()]++;
    }

    void add(final ProtocolCounter counter, final long delta)
    {
        values[counter.ordinal()] += delta;
    }

    void raiseTo(final ProtocolCounter counter, final long value)
    {
        if (value > values[counter.ordinal()])
        {
            values[counter.ordinal()] = value;
        }
    }
}
