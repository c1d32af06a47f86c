package io.ringwatch.transport.rdma;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PortStateFileTest
{
    @TempDir
    Path sys;

    private Path port(final String device, final int port, final String state) throws IOException
    {
        final Path dir = Files.createDirectories(sys.resolve(device).resolve("ports").resolve(Integer.toString(port)));
        return Files.writeString(dir.resolve("state"), state);
    }

    @Test
    void shouldFindThePortOfAnIpoibInterfaceByItsDevPort() throws IOException
    {
        port("mlx5_0", 1, "4: ACTIVE\n");
        final Path second = port("mlx5_0", 2, "1: DOWN\n");
        Files.createDirectories(sys.resolve("mlx5_0/device/net/ib1"));

        assertEquals(second, PortStateFile.find("ib1", sys, "1"));
        assertNull(PortStateFile.find("ib1", sys, null), "two ports and no dev_port: cannot tell");
        assertNull(PortStateFile.find("eth0", sys, "0"));
    }

    @Test
    void shouldFindASoftRoceDeviceThroughItsGidTable() throws IOException
    {
        final Path state = port("rxe0", 1, "4: ACTIVE\n");
        final Path ndevs = Files.createDirectories(sys.resolve("rxe0/ports/1/gid_attrs/ndevs"));
        Files.writeString(ndevs.resolve("0"), "eth0\n");

        assertEquals(state, PortStateFile.find("eth0", sys, null));
    }

    @Test
    void shouldReadTheStateAgainOnEveryCheck() throws IOException
    {
        final Path state = port("rxe0", 1, "4: ACTIVE\n");
        try (PortStateFile file = PortStateFile.open(state))
        {
            assertTrue(file.isActive());
            Files.writeString(state, "1: DOWN\n");
            assertFalse(file.isActive());
            Files.writeString(state, "5: ACTIVE_DEFER\n");
            assertTrue(file.isActive());
            Files.writeString(state, "2: INIT\n");
            assertFalse(file.isActive());
        }
    }
}
