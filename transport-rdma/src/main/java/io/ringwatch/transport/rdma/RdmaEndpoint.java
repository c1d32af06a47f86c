package io.ringwatch.transport.rdma;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Where a node's RDMA connection manager listens: the IP of its IPoIB or RoCE interface and a port, as written in
 * the cluster file's {@code rdma=host:port} column. rdma_cm resolves the IP to a device and port, so the address
 * must be one that sits on an RDMA interface, not the node's Ethernet control address (unless that is RoCE).
 *
 * @param host as written: a host name, an IPv4 literal, or an IPv6 literal without brackets.
 * @param port in [1, 65535].
 */
public record RdmaEndpoint(String host, int port)
{
    /** Name of the cluster-file column that carries it. */
    public static final String COLUMN = "rdma";

    /**
     * @throws IllegalArgumentException on an empty host or a port out of range.
     */
    public RdmaEndpoint
    {
        if (host == null || host.isBlank())
        {
            throw new IllegalArgumentException("RDMA endpoint host is empty");
        }
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("RDMA endpoint port " + port + " not in [1, 65535]");
        }
    }

    /**
     * Parse {@code host:port}, {@code a.b.c.d:port} or {@code [ipv6]:port}.
     *
     * @param text the column's value, without the {@code rdma=} prefix.
     * @return the endpoint.
     * @throws IllegalArgumentException naming the text and what is wrong with it.
     */
    public static RdmaEndpoint parse(final String text)
    {
        if (text == null || text.isBlank())
        {
            throw new IllegalArgumentException("RDMA endpoint is empty; expected host:port");
        }
        final String trimmed = text.trim();
        final String host;
        final String portText;
        if (trimmed.startsWith("["))
        {
            final int close = trimmed.indexOf(']');
            if (close < 0)
            {
                throw new IllegalArgumentException("RDMA endpoint '" + text + "': '[' without ']'");
            }
            host = trimmed.substring(1, close);
            if (host.isEmpty() || host.indexOf(':') < 0)
            {
                throw new IllegalArgumentException("RDMA endpoint '" + text + "': brackets are for IPv6 literals");
            }
            if (close + 1 >= trimmed.length() || trimmed.charAt(close + 1) != ':')
            {
                throw new IllegalArgumentException("RDMA endpoint '" + text + "': expected [ipv6]:port");
            }
            portText = trimmed.substring(close + 2);
        }
        else
        {
            final int colon = trimmed.lastIndexOf(':');
            if (colon < 0)
            {
                throw new IllegalArgumentException("RDMA endpoint '" + text + "': no port; expected host:port");
            }
            if (trimmed.indexOf(':') != colon)
            {
                throw new IllegalArgumentException("RDMA endpoint '" + text +
                    "': an IPv6 literal must be bracketed, e.g. [fe80::1]:7471");
            }
            host = trimmed.substring(0, colon);
            if (host.isEmpty())
            {
                throw new IllegalArgumentException("RDMA endpoint '" + text + "': no host; expected host:port");
            }
            portText = trimmed.substring(colon + 1);
        }

        final int port;
        try
        {
            port = Integer.parseInt(portText);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("RDMA endpoint '" + text + "': port '" + portText +
                "' is not a number");
        }
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("RDMA endpoint '" + text + "': port " + port + " not in [1, 65535]");
        }
        return new RdmaEndpoint(host, port);
    }

    /**
     * Resolve the host once, at start-up; the data path never looks names up.
     *
     * @return the socket address.
     * @throws IllegalArgumentException if the host does not resolve.
     */
    public InetSocketAddress resolve()
    {
        try
        {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("RDMA endpoint " + this + ": host does not resolve: " +
                ex.getMessage(), ex);
        }
    }

    /**
     * @param address a resolved address.
     * @return {@code null} if DiSNI 2.1 can connect to it, else why not (its address structures are IPv4 only).
     */
    public static String unsupportedByDisniReason(final InetSocketAddress address)
    {
        return address.getAddress() instanceof Inet6Address ?
            "DiSNI 2.1 passes only IPv4 addresses to rdma_cm; use the interface's IPv4 address instead of " +
            address.getAddress().getHostAddress() : null;
    }

    /**
     * @return the column's text form: {@code host:port}, IPv6 literals bracketed.
     */
    public String toString()
    {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
