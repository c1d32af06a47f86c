package io.ringwatch.transport.rdma;

import io.ringwatch.core.config.Durations;

import java.util.concurrent.TimeUnit;

/**
 * System properties of the RDMA heartbeat transport. Durations need their unit (ns, us, ms or s), as every
 * {@code ringwatch.*} duration does ({@link Durations#propertyNs}).
 */
public final class RdmaConfiguration
{
    /** Signal one RDMA WRITE in this many so completions are reaped and send-queue entries recycled. */
    public static final String SIGNAL_INTERVAL_PROP_NAME = "ringwatch.rdma.signal.interval";
    /** Default {@link #SIGNAL_INTERVAL_PROP_NAME}. */
    public static final int SIGNAL_INTERVAL_DEFAULT = 16;

    /** Give up on one connection attempt (address, route, connect) after this long. */
    public static final String CONNECT_TIMEOUT_PROP_NAME = "ringwatch.rdma.connect.timeout";
    /** Default {@link #CONNECT_TIMEOUT_PROP_NAME}. */
    public static final long CONNECT_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(2);

    /** Wait this long after a failed attempt before retrying the same observer. */
    public static final String RECONNECT_BACKOFF_PROP_NAME = "ringwatch.rdma.reconnect.backoff";
    /** Default {@link #RECONNECT_BACKOFF_PROP_NAME}. */
    public static final long RECONNECT_BACKOFF_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * How often connection-manager events are polled while no connection is being made or expected (DiSNI
     * allocates per poll, so steady state polls rarely); a peer's disconnect is noticed within this.
     */
    public static final String EVENT_POLL_INTERVAL_PROP_NAME = "ringwatch.rdma.event.poll.interval";
    /** Default {@link #EVENT_POLL_INTERVAL_PROP_NAME}. */
    public static final long EVENT_POLL_INTERVAL_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(100);

    /** How often the local port's state is read; keep it well below δ so a deaf node stops before it suspects. */
    public static final String PORT_CHECK_INTERVAL_PROP_NAME = "ringwatch.rdma.port.check.interval";
    /** Default {@link #PORT_CHECK_INTERVAL_PROP_NAME}. */
    public static final long PORT_CHECK_INTERVAL_DEFAULT_NS = TimeUnit.MICROSECONDS.toNanos(500);

    /**
     * Most emitter connections an observer keeps; the oldest is dropped to admit a new one. Default: the
     * pre-connection count + 1, since that many predecessors keep a connection to each node.
     */
    public static final String MAX_INBOUND_PROP_NAME = "ringwatch.rdma.max.inbound";

    private RdmaConfiguration()
    {
    }

    /**
     * @return {@link #SIGNAL_INTERVAL_PROP_NAME} or its default.
     */
    public static int signalInterval()
    {
        return Integer.getInteger(SIGNAL_INTERVAL_PROP_NAME, SIGNAL_INTERVAL_DEFAULT);
    }

    /**
     * @return {@link #CONNECT_TIMEOUT_PROP_NAME} or its default, in ns.
     */
    public static long connectTimeoutNs()
    {
        return Durations.propertyNs(CONNECT_TIMEOUT_PROP_NAME, CONNECT_TIMEOUT_DEFAULT_NS);
    }

    /**
     * @return {@link #RECONNECT_BACKOFF_PROP_NAME} or its default, in ns.
     */
    public static long reconnectBackoffNs()
    {
        return Durations.propertyNs(RECONNECT_BACKOFF_PROP_NAME, RECONNECT_BACKOFF_DEFAULT_NS);
    }

    /**
     * @return {@link #EVENT_POLL_INTERVAL_PROP_NAME} or its default, in ns.
     */
    public static long eventPollIntervalNs()
    {
        return Durations.propertyNs(EVENT_POLL_INTERVAL_PROP_NAME, EVENT_POLL_INTERVAL_DEFAULT_NS);
    }

    /**
     * @return {@link #PORT_CHECK_INTERVAL_PROP_NAME} or its default, in ns.
     */
    public static long portCheckIntervalNs()
    {
        return Durations.propertyNs(PORT_CHECK_INTERVAL_PROP_NAME, PORT_CHECK_INTERVAL_DEFAULT_NS);
    }

    /**
     * @return {@link #MAX_INBOUND_PROP_NAME}, or -1 for the default (pre-connection count + 1).
     */
    public static int maxInbound()
    {
        return Integer.getInteger(MAX_INBOUND_PROP_NAME, -1);
    }
}
