package io.ringwatch.transport.rdma;

import io.ringwatch.nativeconfig.HostFiles;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The sysfs state file of the RDMA port behind an IP address, read without allocating: sysfs regenerates an
 * attribute on every read from offset 0, so one open channel and one direct buffer serve every check. The file
 * reads {@code "4: ACTIVE"}; the leading digit is the state (4 ACTIVE, 5 ACTIVE_DEFER, below that not usable).
 */
final class PortStateFile implements AutoCloseable
{
    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(32);

    private PortStateFile(final Path path, final FileChannel channel)
    {
        this.path = path;
        this.channel = channel;
    }

    /**
     * @param address  an address of an RDMA interface (IPoIB or RoCE netdev).
     * @param classDir usually {@code /sys/class/infiniband}.
     * @return the watcher, or {@code null} if no port can be tied to the address (then the state is unknown).
     */
    static PortStateFile forAddress(final InetAddress address, final Path classDir)
    {
        final String netDevice;
        try
        {
            final NetworkInterface nif = NetworkInterface.getByInetAddress(address);
            if (nif == null)
            {
                return null;
            }
            netDevice = nif.getName();
        }
        catch (final SocketException ex)
        {
            return null;
        }
        final Path state = find(netDevice, classDir, HostFiles.readTrimmedOrNull(
            Path.of("/sys/class/net", netDevice, "dev_port")));
        return state == null ? null : open(state);
    }

    /**
     * @param state a port's {@code state} file.
     * @return the watcher, or {@code null} if the file cannot be opened.
     */
    static PortStateFile open(final Path state)
    {
        try
        {
            return new PortStateFile(state, FileChannel.open(state, StandardOpenOption.READ));
        }
        catch (final IOException | SecurityException ex)
        {
            return null;
        }
    }

    /**
     * Find the port serving a network interface: the device whose PCI function owns the interface (IPoIB and
     * hardware RoCE), or whose GID table names it (Soft-RoCE, which has no PCI device).
     *
     * @param netDevice interface name, e.g. {@code ib0}.
     * @param classDir  usually {@code /sys/class/infiniband}.
     * @param devPort   contents of {@code /sys/class/net/<if>/dev_port} (0-based), or {@code null}.
     * @return the port's {@code state} file, or {@code null}.
     */
    static Path find(final String netDevice, final Path classDir, final String devPort)
    {
        for (final Path device : HostFiles.sortedChildren(classDir))
        {
            final List<Path> ports = HostFiles.sortedChildren(device.resolve("ports"));
            if (Files.exists(device.resolve("device").resolve("net").resolve(netDevice)))
            {
                final Path byDevPort = devPort == null ? null : portDir(device, devPort);
                if (byDevPort != null)
                {
                    return byDevPort.resolve("state");
                }
                if (ports.size() == 1)
                {
                    return ports.get(0).resolve("state");
                }
            }
            for (final Path port : ports)
            {
                for (final Path ndev : HostFiles.sortedChildren(port.resolve("gid_attrs").resolve("ndevs")))
                {
                    if (netDevice.equals(HostFiles.readTrimmedOrNull(ndev)))
                    {
                        return port.resolve("state");
                    }
                }
            }
        }
        return null;
    }

    private static Path portDir(final Path device, final String devPort)
    {
        try
        {
            final Path port = device.resolve("ports").resolve(Integer.toString(Integer.parseInt(devPort) + 1));
            return Files.isDirectory(port) ? port : null;
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
    }

    /**
     * @return true if the port is ACTIVE (or ACTIVE_DEFER), or if the file cannot be read (unknown is not down).
     */
    boolean isActive()
    {
        buffer.clear();
        try
        {
            if (channel.read(buffer, 0) <= 0)
            {
                return true;
            }
        }
        catch (final IOException ex)
        {
            return true;
        }
        final byte state = buffer.get(0);
        return state == '4' || state == '5';
    }

    /**
     * @return the file watched.
     */
    Path path()
    {
        return path;
    }

    public void close()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignore)
        {
            // nothing left to release
        }
    }
}
