package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RdmaHostTest
{
    @TempDir
    Path sys;

    @Test
    void shouldReportAbsentClassDirectoryPrecisely()
    {
        final RdmaHost host = RdmaHost.scan(sys.resolve("infiniband"));

        assertFalse(host.sysfsPresent());
        assertEquals("no RDMA device: /sys/class/infiniband absent (no RDMA hardware or ib_core/rdma kernel " +
            "modules not loaded)", host.unusableReason());
    }

    @Test
    void shouldReadPortsAndNetDevicesOfEachDevice() throws IOException
    {
        final Path classDir = sys.resolve("infiniband");
        port(classDir, "mlx5_0", 1, "4: ACTIVE\n", "InfiniBand\n", "100 Gb/sec (4X EDR)\n");
        port(classDir, "mlx5_1", 1, "1: DOWN\n", "Ethernet\n", null);
        Files.createDirectories(classDir.resolve("mlx5_0/device/net/ib0"));

        final RdmaHost host = RdmaHost.scan(classDir);

        assertTrue(host.sysfsPresent());
        assertEquals(List.of(
            new RdmaPort("mlx5_0", 1, "ACTIVE", "InfiniBand", "100 Gb/sec (4X EDR)"),
            new RdmaPort("mlx5_1", 1, "DOWN", "Ethernet", "")), host.ports());
        assertEquals(List.of("ib0"), host.netDevices());
        assertTrue(host.hasActivePort());
        assertNull(host.unusableReason());
    }

    @Test
    void shouldSayNoActivePortWhenAllAreDown() throws IOException
    {
        final Path classDir = sys.resolve("infiniband");
        port(classDir, "mlx4_0", 2, "1: DOWN\n", "InfiniBand\n", null);

        final RdmaHost host = RdmaHost.scan(classDir);

        assertTrue(host.unusableReason().startsWith("no ACTIVE RDMA port"), host.unusableReason());
    }

    @Test
    void shouldSayEmptyWhenClassDirectoryHasNoDevices() throws IOException
    {
        final Path classDir = Files.createDirectories(sys.resolve("infiniband"));

        assertEquals("no RDMA device: /sys/class/infiniband is empty", RdmaHost.scan(classDir).unusableReason());
    }

    private static void port(
        final Path classDir, final String device, final int port, final String state, final String linkLayer,
        final String rate) throws IOException
    {
        final Path dir = Files.createDirectories(classDir.resolve(device).resolve("ports").resolve(String.valueOf(port)));
        Files.writeString(dir.resolve("state"), state);
        Files.writeString(dir.resolve("link_layer"), linkLayer);
        if (rate != null)
        {
            Files.writeString(dir.resolve("rate"), rate);
        }
    }
}
