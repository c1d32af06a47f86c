package io.ringwatch.nativeconfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * RDMA devices the kernel has registered, read from {@code /sys/class/infiniband/<dev>/ports/<n>/...}, and the
 * network interfaces bound to them (RDMA CM resolves peers by the IP address of such an interface).
 */
public final class RdmaHost
{
    private final boolean sysfsPresent;
    private final List<RdmaPort> ports;
    private final List<String> netDevices;

    /**
     * @param sysfsPresent whether the class directory exists at all (absent means no RDMA kernel support).
     * @param ports        every port of every device.
     * @param netDevices   network interfaces bound to RDMA devices, e.g. {@code ib0}.
     */
    public RdmaHost(final boolean sysfsPresent, final List<RdmaPort> ports, final List<String> netDevices)
    {
        this.sysfsPresent = sysfsPresent;
        this.ports = List.copyOf(ports);
        this.netDevices = List.copyOf(netDevices);
    }

    /**
     * @return the running host's RDMA devices.
     */
    public static RdmaHost probe()
    {
        return scan(HostFiles.SYS_CLASS_INFINIBAND);
    }

    /**
     * Walk a sysfs-shaped tree. Taking the root as a parameter lets tests build a fixture tree.
     *
     * @param classDir usually {@code /sys/class/infiniband}.
     * @return what was found; unreadable attributes become {@link RdmaPort#UNKNOWN}.
     */
    public static RdmaHost scan(final Path classDir)
    {
        if (!Files.isDirectory(classDir))
        {
            return new RdmaHost(false, List.of(), List.of());
        }

        final List<RdmaPort> ports = new ArrayList<>();
        final List<String> netDevices = new ArrayList<>();
        for (final Path device : HostFiles.sortedChildren(classDir))
        {
            final String name = device.getFileName().toString();
            for (final Path port : HostFiles.sortedChildren(device.resolve("ports")))
            {
                final int number;
                try
                {
                    number = Integer.parseInt(port.getFileName().toString());
                }
                catch (final NumberFormatException ex)
                {
                    continue;
                }
                final String linkLayer = HostFiles.readTrimmedOrNull(port.resolve("link_layer"));
                final String rate = HostFiles.readTrimmedOrNull(port.resolve("rate"));
                ports.add(new RdmaPort(
                    name,
                    number,
                    RdmaPort.parseState(HostFiles.readOrNull(port.resolve("state"))),
                    linkLayer == null || linkLayer.isEmpty() ? RdmaPort.UNKNOWN : linkLayer,
                    rate == null ? "" : rate));
            }
            for (final Path net : HostFiles.sortedChildren(device.resolve("device").resolve("net")))
            {
                netDevices.add(net.getFileName().toString());
            }
        }

        return new RdmaHost(true, ports, netDevices);
    }

    /**
     * @return true if {@code /sys/class/infiniband} exists (the kernel has RDMA core support loaded).
     */
    public boolean sysfsPresent()
    {
        return sysfsPresent;
    }

    /**
     * @return every port found.
     */
    public List<RdmaPort> ports()
    {
        return ports;
    }

    /**
     * @return network interfaces bound to RDMA devices.
     */
    public List<String> netDevices()
    {
        return netDevices;
    }

    /**
     * @return true if at least one port is {@code ACTIVE}.
     */
    public boolean hasActivePort()
    {
        for (final RdmaPort port : ports)
        {
            if (port.isActive())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @return {@code null} if an active port exists, otherwise the precise reason RDMA cannot carry traffic.
     */
    public String unusableReason()
    {
        if (!sysfsPresent)
        {
            return "no RDMA device: /sys/class/infiniband absent (no RDMA hardware or ib_core/rdma kernel " +
                "modules not loaded)";
        }
        if (ports.isEmpty())
        {
            return "no RDMA device: /sys/class/infiniband is empty";
        }
        if (!hasActivePort())
        {
            return "no ACTIVE RDMA port: " + ports;
        }
        return null;
    }
}
