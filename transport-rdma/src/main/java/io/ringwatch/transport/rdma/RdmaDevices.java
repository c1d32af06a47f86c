package io.ringwatch.transport.rdma;

import com.ibm.disni.verbs.RdmaEventChannel;
import io.ringwatch.nativeconfig.NativeLibraryProbe;
import io.ringwatch.nativeconfig.RdmaHost;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Enumeration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Whether the RDMA heartbeat transport can run on this host, and if not, the first thing missing, checked in
 * the order an operator would fix them: kernel devices, an active port, the verbs and connection-manager
 * libraries, DiSNI's JNI library, and finally opening an RDMA CM event channel through DiSNI.
 */
public final class RdmaDevices
{
    private RdmaDevices()
    {
    }

    /**
     * Outcome of a probe.
     *
     * @param usable     true if every check passed.
     * @param reason     the first failed check, {@code null} when usable.
     * @param netDevices network interfaces bound to RDMA devices (RDMA CM binds and resolves by their IPs).
     */
    public record Availability(boolean usable, String reason, List<String> netDevices)
    {
        static Availability usable(final List<String> netDevices)
        {
            return new Availability(true, null, netDevices);
        }

        static Availability unusable(final String reason, final List<String> netDevices)
        {
            return new Availability(false, reason, netDevices);
        }
    }

    /**
     * Probe the running host. Cheap checks first; DiSNI is only touched when the host has devices and
     * libraries, so on a plain machine this never loads native code.
     *
     * @return availability with a precise reason.
     */
    public static Availability probe()
    {
        return evaluate(
            RdmaHost.probe(),
            NativeLibraryProbe.findOnLinkerPath("ibverbs"),
            NativeLibraryProbe.findOnLinkerPath("rdmacm"),
            RdmaDevices::disniUnusableReason);
    }

    /**
     * The decision, separated from the probing so it can be tested with any host.
     *
     * @param host           RDMA devices found.
     * @param ibverbs        search result for libibverbs.
     * @param rdmacm         search result for librdmacm.
     * @param disniCheck     returns {@code null} if DiSNI works, else why not; called last, only if all else
     *                       passed.
     * @return availability.
     */
    static Availability evaluate(
        final RdmaHost host,
        final NativeLibraryProbe.Result ibverbs,
        final NativeLibraryProbe.Result rdmacm,
        final Supplier<String> disniCheck)
    {
        final List<String> netDevices = host.netDevices();
        final String hostReason = host.unusableReason();
        if (hostReason != null)
        {
            return Availability.unusable(hostReason, netDevices);
        }
        if (!ibverbs.usable())
        {
            return Availability.unusable("libibverbs not found on the linker path (install rdma-core: " +
                "apt-get install libibverbs1 ibverbs-providers, or dnf install rdma-core)", netDevices);
        }
        if (!rdmacm.usable())
        {
            return Availability.unusable("librdmacm not found on the linker path (install rdma-core: " +
                "apt-get install librdmacm1, or dnf install librdmacm)", netDevices);
        }
        final String disniReason = disniCheck.get();
        if (disniReason != null)
        {
            return Availability.unusable(disniReason, netDevices);
        }
        return Availability.usable(netDevices);
    }

    /**
     * @return {@code null} if DiSNI's native library loads and can open an RDMA CM event channel, else why not.
     */
    static String disniUnusableReason()
    {
        final NativeLibraryProbe.Result disni = NativeLibraryProbe.tryLoad("disni");
        if (!disni.usable())
        {
            return "DiSNI native library libdisni not loadable: " + disni.loadError() +
                " (build it with transport-rdma/scripts/build-libdisni.sh, or add its directory to " +
                "-Djava.library.path)";
        }
        try
        {
            final RdmaEventChannel channel = RdmaEventChannel.createEventChannel();
            if (channel == null)
            {
                return "DiSNI could not create an RDMA CM event channel";
            }
            channel.destroyEventChannel();
            return null;
        }
        catch (final IOException | RuntimeException | LinkageError ex)
        {
            return "DiSNI could not open an RDMA CM event channel (is /dev/infiniband/rdma_cm present and " +
                "accessible, rdma_ucm loaded?): " + ex;
        }
    }

    /**
     * An IPv4 address of an interface bound to an RDMA device, to bind the slot listener to.
     *
     * @param netDevices interface names from {@link Availability#netDevices()}.
     * @return the first such address, or {@code null} if none has one.
     */
    public static InetAddress firstIpv4Address(final List<String> netDevices)
    {
        for (final String name : netDevices)
        {
            try
            {
                final NetworkInterface nif = NetworkInterface.getByName(name);
                if (nif == null || !nif.isUp())
                {
                    continue;
                }
                final Enumeration<InetAddress> addresses = nif.getInetAddresses();
                while (addresses.hasMoreElements())
                {
                    final InetAddress address = addresses.nextElement();
                    if (address instanceof Inet4Address)
                    {
                        return address;
                    }
                }
            }
            catch (final SocketException ignore)
            {
                // interface vanished between listing and lookup: try the next one
            }
        }
        return null;
    }
}
