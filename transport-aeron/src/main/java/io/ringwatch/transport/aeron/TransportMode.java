package io.ringwatch.transport.aeron;

import java.util.Locale;

/**
 * How a node's heartbeats and control frames travel.
 */
public enum TransportMode
{
    /** One host: heartbeats are stores into a shared slot file, control frames go on Aeron IPC. */
    IPC,
    /** Across hosts: heartbeats and control frames are Aeron UDP frames; received heartbeats land in a local slot. */
    UDP,
    /**
     * Across hosts with InfiniBand or RoCE: heartbeats are one-sided RDMA WRITEs into the observer's registered slot
     * (transport-rdma's {@code RdmaHeartbeats}); control frames and notices are Aeron UDP frames exactly as in
     * {@link #UDP}. Every member of the cluster file needs an {@code rdma=host:port} column.
     */
    RDMA;

    /**
     * @return true if control frames and notices go on Aeron UDP to each member's control port (UDP and RDMA).
     */
    public boolean controlOverUdp()
    {
        return this != IPC;
    }

    /**
     * @return the lower-case name, as {@link #parse(String)} reads it and the command line writes it.
     */
    public String cliName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param name ipc, udp or rdma, any case.
     * @return the mode.
     * @throws IllegalArgumentException naming the bad value.
     */
    public static TransportMode parse(final String name)
    {
        for (final TransportMode mode : values())
        {
            if (mode.name().equalsIgnoreCase(name))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException("transport must be ipc, udp or rdma: " + name);
    }
}
