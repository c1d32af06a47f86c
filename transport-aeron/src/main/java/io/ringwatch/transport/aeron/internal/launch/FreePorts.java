package io.ringwatch.transport.aeron.internal.launch;

import io.ringwatch.transport.aeron.ClusterConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

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
