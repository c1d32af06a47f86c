package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RdmaReadinessTest
{
    private static final NativeLibraryProbe.Result FOUND =
        new NativeLibraryProbe.Result("x", Path.of("/usr/lib/libx.so.1"), null, false);
    private static final NativeLibraryProbe.Result MISSING = new NativeLibraryProbe.Result("x", null, null, false);
    private static final NativeLibraryProbe.Result NOT_LOADED =
        new NativeLibraryProbe.Result("disni", null, "no disni in java.library.path", true);

    @TempDir
    Path dev;

    private final List<Doctor.Check> checks = new ArrayList<>();

    @Test
    void shouldSayHowToGetADeviceWhenThereIsNone()
    {
        RdmaReadiness.checkDevices(new RdmaHost(false, List.of(), List.of()), dev, checks);

        assertEquals(1, checks.size());
        final Doctor.Check check = checks.get(0);
        assertEquals(Doctor.Status.WARN, check.status());
        assertTrue(check.detail().contains("/sys/class/infiniband absent"), check.detail());
        assertTrue(check.advice().contains("rdma link add rxe0 type rxe netdev"), check.advice());
    }

    @Test
    void shouldGiveEachDownPortTheFixForItsLinkLayerAndState()
    {
        RdmaReadiness.checkDevices(new RdmaHost(true, List.of(
            new RdmaPort("mlx5_0", 1, "INIT", "InfiniBand", ""),
            new RdmaPort("mlx5_0", 2, "DOWN", "InfiniBand", ""),
            new RdmaPort("mlx5_1", 1, "DOWN", "Ethernet", ""),
            new RdmaPort("rxe0", 1, "ACTIVE", "Ethernet", "")), List.of()), dev, checks);

        assertTrue(checks.get(0).advice().contains("opensm"), checks.get(0).advice());
        assertTrue(checks.get(1).advice().contains("cable"), checks.get(1).advice());
        assertTrue(checks.get(2).advice().contains("ip link set"), checks.get(2).advice());
        assertEquals(Doctor.Status.OK, checks.get(3).status());
        assertEquals("", checks.get(3).advice());
        assertTrue(checks.get(4).advice().contains("IPoIB"), "no interface: " + checks.get(4));
        assertTrue(checks.get(5).detail().contains("rdma_cm absent (modprobe rdma_ucm)"), checks.get(5).detail());
        assertTrue(checks.get(5).detail().contains("modprobe ib_uverbs"), checks.get(5).detail());
    }

    @Test
    void shouldAcceptPresentDeviceFiles() throws IOException
    {
        Files.createFile(dev.resolve("rdma_cm"));
        Files.createFile(dev.resolve("uverbs0"));

        RdmaReadiness.checkDevices(new RdmaHost(true, List.of(new RdmaPort("rxe0", 1, "ACTIVE", "Ethernet", "")),
            List.of("eth0")), dev, checks);

        assertEquals(Doctor.Status.OK, checks.get(2).status(), checks.get(2).toString());
    }

    @Test
    void shouldNameEachMissingLibraryWithItsFix()
    {
        RdmaReadiness.checkLibraries(MISSING, MISSING, NOT_LOADED, checks);

        assertEquals(3, checks.size());
        assertEquals(RdmaReadiness.IBVERBS_FIX, checks.get(0).advice());
        assertEquals(RdmaReadiness.RDMACM_FIX, checks.get(1).advice());
        assertEquals(RdmaReadiness.DISNI_FIX, checks.get(2).advice());
        assertTrue(checks.get(2).detail().contains("no disni in java.library.path"), checks.get(2).detail());
        assertTrue(checks.stream().allMatch(c -> c.status() == Doctor.Status.WARN));

        checks.clear();
        RdmaReadiness.checkLibraries(FOUND, FOUND, new NativeLibraryProbe.Result("disni", null, null, true), checks);
        assertTrue(checks.stream().allMatch(c -> c.status() == Doctor.Status.OK && c.advice().isEmpty()));
    }
}
