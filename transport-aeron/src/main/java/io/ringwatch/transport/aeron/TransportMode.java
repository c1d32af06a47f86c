package io.ringwatch.transport.aeron;

/**
 * How a node's heartbeats and control frames travel.
 */
public enum TransportMode
{
    /** One host: heartbeats are stores into a shared slot file, control frames go on Aeron IPC. */
    IPC,
    /** Across hosts: heartbeats and control frames are Aeron UDP frames; received heartbeats land in a local slot. */
    UDP;

    /**
     * @param name ipc or udp, any case.
     * @return the mode.
     * @throws IllegalArgumentException naming the bad value.
     */
    public static TransportMode parse(final String name)
    {
        if ("ipc".equalsIgnoreCase(name))
        {
            return IPC;
        }
        if ("udp".equalsIgnoreCase(name))
        {
            return UDP;
        }
        throw new IllegalArgumentException("transport must be ipc or udp: " + name);
    }
}
