package io.ringwatch.transport.aeron.launch;

import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.rdma.RdmaEndpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * UDP ports on localhost that nobody is using, for clusters and benchmarks started on this host.
 */
public final class FreePorts
{
    private FreePorts()
    {
    }

    /** Lowest port handed out: clear of the well-known and most registered service ports. */
    static final int LOWEST_PORT = 10_000;

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int LINUX_DEFAULT_EPHEMERAL_LOW = 32_768;

    /**
     * Ports below the kernel's ephemeral range, so no socket bound to port 0 can take one between this call and the
     * node binding it: a 16-node UDP cluster opens hundreds of such sockets as it starts (a media driver's send
     * channels among them), and with ports from the ephemeral range one start in a few dozen lost a node to
     * {@code Address already in use}. Each is free a moment ago; a process binding that very port could still take
     * it. Every socket is held until all are found, so the ports are distinct.
     *
     * @param count how many.
     * @return distinct UDP ports on localhost that were free a moment ago.
     * @throws IllegalStateException if fewer than {@code count} are free.
     */
    public static int[] udp(final int count)
    {
        final int below = ephemeralLow();
        return udp(count, ThreadLocalRandom.current().nextInt(below - LOWEST_PORT), below);
    }

    /**
     * @param count how many.
     * @param first where to start looking, as an offset from {@link #LOWEST_PORT}; the search wraps around.
     * @param below the first port not handed out: the start of the ephemeral range.
     * @return distinct UDP ports on localhost that were free a moment ago.
     */
    static int[] udp(final int count, final int first, final int below)
    {
        final int span = below - LOWEST_PORT;
        final DatagramSocket[] sockets = new DatagramSocket[count];
        final int[] ports = new int[count];
        int found = 0;
        try
        {
            for (int i = 0; i < span && found < count; i++)
            {
                final int port = LOWEST_PORT + (first + i) % span;
                try
                {
                    sockets[found] = new DatagramSocket(new InetSocketAddress("localhost", port));
                    ports[found++] = port;
                }
                catch (final IOException taken)
                {
                    // in use: try the next
                }
            }
            if (found < count)
            {
                throw new IllegalStateException("only " + found + " of " + count + " UDP ports free on localhost in [" +
                    LOWEST_PORT + ", " + below + ")");
            }
            return ports;
        }
        finally
        {
            for (final DatagramSocket s : sockets)
            {
                if (s != null)
                {
                    s.close();
                }
            }
        }
    }

    /**
     * @return the first port of the kernel's ephemeral range, or Linux's default where it cannot be read.
     */
    static int ephemeralLow()
    {
        try
        {
            final int low = Integer.parseInt(Files.readString(EPHEMERAL_RANGE).trim().split("\\s+")[0]);
            return low > LOWEST_PORT + 1_000 ? low : LINUX_DEFAULT_EPHEMERAL_LOW;
        }
        catch (final IOException | RuntimeException ex)
        {
            return LINUX_DEFAULT_EPHEMERAL_LOW;
        }
    }

    /**
     * Ports for rdma_cm listeners: TCP ports free on {@code address} a moment ago. rdma_cm keeps ports of its own,
     * but on an IPoIB or RoCE interface a port TCP does not use is the likeliest one it does not use either.
     *
     * @param address the RDMA interface's address.
     * @param count   how many.
     * @return distinct ports.
     */
    public static int[] tcp(final InetAddress address, final int count)
    {
        final ServerSocket[] sockets = new ServerSocket[count];
        final int[] ports = new int[count];
        try
        {
            for (int i = 0; i < count; i++)
            {
                sockets[i] = new ServerSocket(0, 1, address);
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot find free TCP ports on " + address, ex);
        }
        finally
        {
            for (final ServerSocket s : sockets)
            {
                if (s != null)
                {
                    try
                    {
                        s.close();
                    }
                    catch (final IOException ignore)
                    {
                        // a listening socket that fails to close still frees its port with the process
                    }
                }
            }
        }
    }

    /**
     * @param members members without RDMA endpoints.
     * @param address the RDMA interface's address every member listens on (one host).
     * @return the same members, each with {@code rdma=address:port} on a port of its own.
     */
    public static List<ClusterConfig.Member> withRdmaEndpoints(
        final List<ClusterConfig.Member> members, final InetAddress address)
    {
        final int[] ports = tcp(address, members.size());
        final List<ClusterConfig.Member> withRdma = new ArrayList<>(members.size());
        for (int i = 0; i < members.size(); i++)
        {
            withRdma.add(members.get(i).withRdma(new RdmaEndpoint(address.getHostAddress(), ports[i])));
        }
        return withRdma;
    }

    /**
     * @param nodes cluster size.
     * @return members 0..nodes-1 on localhost, each with a free control port and a free heartbeat port.
     */
    public static List<ClusterConfig.Member> localhostMembers(final int nodes)
    {
        final int[] ports = udp(2 * nodes);
        final List<ClusterConfig.Member> members = new ArrayList<>(nodes);
        for (int r = 0; r < nodes; r++)
        {
            members.add(new ClusterConfig.Member(r, "localhost", ports[2 * r], ports[2 * r + 1]));
        }
        return members;
    }
}
