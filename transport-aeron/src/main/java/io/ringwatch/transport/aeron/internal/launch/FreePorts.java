package io.ringwatch.transport.aeron.internal.launch;

import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.rdma.RdmaEndpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * UDP ports on localhost that nobody is using, for clusters and benchmarks started on this host.
 */
public final class FreePorts
{
    private FreePorts()
    {
    }

    /**
     * Bind every socket before closing any, so the ports are distinct; they are free a moment later unless another
     * process takes one first.
     *
     * @param count how many.
     * @return distinct UDP ports on localhost that were free a moment ago.
     */
    public static int[] udp(final int count)
    {
        final DatagramSocket[] sockets = new DatagramSocket[count];
        final int[] ports = new int[count];
        try
        {
            for (int i = 0; i < count; i++)
            {
                sockets[i] = new DatagramSocket(new InetSocketAddress("localhost", 0));
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot find free UDP ports", ex);
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

    /**
     * Wait until a UDP port can be bound again: a media driver holds a killed client's endpoints until it times the
     * client out, and a process restarted on the same host must not race it.
     *
     * @param host      address the port is bound on.
     * @param port      the port; 0 or less returns at once.
     * @param timeoutNs how long to wait.
     * @throws IllegalStateException if it is still taken after {@code timeoutNs}.
     * @throws InterruptedException  if interrupted.
     */
    public static void awaitFree(final String host, final int port, final long timeoutNs) throws InterruptedException
    {
        if (port <= 0)
        {
            return;
        }
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (true)
        {
            try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(host, port)))
            {
                return;
            }
            catch (final IOException ex)
            {
                if (System.nanoTime() - deadlineNs >= 0)
                {
                    throw new IllegalStateException("port " + host + ":" + port + " still in use after " +
                        TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms", ex);
                }
                Thread.sleep(10);
            }
        }
    }
}
