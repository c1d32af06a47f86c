package io.ringwatch.nativeconfig;

import io.ringwatch.nativeconfig.Doctor.Check;
import io.ringwatch.nativeconfig.Doctor.Status;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Doctor's RDMA sections: everything the RDMA heartbeat transport needs on a host, each missing piece with the
 * one-line fix. Sections {@code rdma} (devices, port states, interfaces, device files) and {@code libraries}
 * (libibverbs, librdmacm, libdisni). The locked-memory limit RDMA registration needs is doctor's {@code memlock}
 * section. Missing RDMA is a {@code WARN}: the UDP and shared-memory transports do not need it.
 */
final class RdmaReadiness
{
    /** Where the RDMA character devices live. */
    static final Path DEV_INFINIBAND = Path.of("/dev/infiniband");

    static final String NO_DEVICE_FIX = "load the HCA's driver and the RDMA core (e.g. modprobe mlx5_ib ib_uverbs " +
        "rdma_ucm), or for Soft-RoCE: modprobe rdma_rxe && rdma link add rxe0 type rxe netdev <interface>";
    static final String IBVERBS_FIX = "install rdma-core's verbs library and providers: apt-get install libibverbs1 " +
        "ibverbs-providers (dnf install rdma-core libibverbs)";
    static final String RDMACM_FIX = "install rdma-core's connection manager: apt-get install librdmacm1 " +
        "(dnf install librdmacm)";
    static final String DISNI_FIX = "build it: transport-rdma/scripts/build-libdisni.sh <DiSNI 2.1 source tree or " +
        "archive> (installs into the JVM's JNI directory), or put its directory on -Djava.library.path";

    private RdmaReadiness()
    {
    }

    /**
     * Examine the running host.
     *
     * @param checks receives the {@code rdma} then the {@code libraries} lines.
     */
    static void examine(final List<Check> checks)
    {
        checkDevices(RdmaHost.probe(), DEV_INFINIBAND, checks);
        checkLibraries(
            NativeLibraryProbe.findOnLinkerPath("ibverbs"),
            NativeLibraryProbe.findOnLinkerPath("rdmacm"),
            NativeLibraryProbe.tryLoad("disni"),
            checks);
    }

    /**
     * @param rdma    devices and ports found.
     * @param devDir  usually {@code /dev/infiniband}.
     * @param checks  receives the {@code rdma} lines.
     */
    static void checkDevices(final RdmaHost rdma, final Path devDir, final List<Check> checks)
    {
        if (!rdma.sysfsPresent() || rdma.ports().isEmpty())
        {
            checks.add(new Check("rdma", Status.WARN, rdma.unusableReason(), NO_DEVICE_FIX));
            return;
        }
        for (final RdmaPort port : rdma.ports())
        {
            checks.add(new Check("rdma", port.isActive() ? Status.OK : Status.WARN,
                port.device() + " port " + port.port() + ": " + port.state() + ", " + port.linkLayer() +
                (port.rate().isEmpty() ? "" : ", " + port.rate()),
                port.isActive() ? "" : portFix(port)));
        }
        checks.add(new Check("rdma", rdma.netDevices().isEmpty() ? Status.WARN : Status.OK,
            "network interfaces on RDMA devices: " +
            (rdma.netDevices().isEmpty() ? "none" : String.join(", ", rdma.netDevices())),
            rdma.netDevices().isEmpty() ? "rdma_cm addresses peers by IP: bring up IPoIB (ib0) or the RoCE " +
                "interface with an address (ip addr add <ip>/<len> dev <interface>)" : ""));

        final List<String> missing = new ArrayList<>();
        final Path cm = devDir.resolve("rdma_cm");
        if (!Files.exists(cm))
        {
            missing.add(cm + " absent (modprobe rdma_ucm)");
        }
        else if (!Files.isReadable(cm) || !Files.isWritable(cm))
        {
            missing.add(cm + " not read/writable by this user (rdma-core's udev rules, or the rdma group)");
        }
        if (children(devDir, "uverbs*").isEmpty())
        {
            missing.add("no " + devDir.resolve("uverbs*") + " (modprobe ib_uverbs)");
        }
        checks.add(missing.isEmpty() ?
            new Check("rdma", Status.OK, "device files " + cm + " and " + devDir.resolve("uverbs*") + " present", "") :
            new Check("rdma", Status.WARN, "RDMA device files: " + String.join("; ", missing),
                "load the modules named and make the files accessible to the node's user"));
    }

    static String portFix(final RdmaPort port)
    {
        if ("Ethernet".equals(port.linkLayer()))
        {
            return "RoCE port down: bring its Ethernet interface up (ip link set <interface> up) and check the link";
        }
        if ("INIT".equals(port.state()) || "ARMED".equals(port.state()))
        {
            return "the port has link but no subnet manager configured it: run opensm on one node of the fabric";
        }
        return "no link: check the cable and the switch port (ibstat shows the physical state)";
    }

    /**
     * @param ibverbs search result for libibverbs.
     * @param rdmacm  search result for librdmacm.
     * @param disni   load result for libdisni.
     * @param checks  receives the {@code libraries} lines.
     */
    static void checkLibraries(
        final NativeLibraryProbe.Result ibverbs,
        final NativeLibraryProbe.Result rdmacm,
        final NativeLibraryProbe.Result disni,
        final List<Check> checks)
    {
        checks.add(ibverbs.usable() ?
            new Check("libraries", Status.OK, "libibverbs at " + ibverbs.foundAt(), "") :
            new Check("libraries", Status.WARN, "libibverbs not found on the linker path (needed for RDMA)",
                IBVERBS_FIX));
        checks.add(rdmacm.usable() ?
            new Check("libraries", Status.OK, "librdmacm at " + rdmacm.foundAt(), "") :
            new Check("libraries", Status.WARN, "librdmacm not found on the linker path (needed for RDMA)",
                RDMACM_FIX));
        checks.add(disni.usable() ?
            new Check("libraries", Status.OK, "libdisni loaded" +
                (disni.foundAt() == null ? "" : " from " + disni.foundAt()), "") :
            new Check("libraries", Status.WARN, "libdisni not loadable (needed for RDMA): " + disni.loadError(),
                DISNI_FIX));
    }

    private static List<Path> children(final Path dir, final String glob)
    {
        final List<Path> children = new ArrayList<>();
        if (!Files.isDirectory(dir))
        {
            return children;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, glob))
        {
            stream.forEach(children::add);
        }
        catch (final IOException | SecurityException ignore)
        {
            // unreadable: reported as missing
        }
        return children;
    }
}
