package io.ringwatch.transport.rdma;

import io.ringwatch.nativeconfig.NativeLibraryProbe;
import io.ringwatch.nativeconfig.RdmaHost;
import io.ringwatch.nativeconfig.RdmaPort;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RdmaDevicesTest
{
    private static final RdmaHost ACTIVE_HOST = new RdmaHost(
        true, List.of(new RdmaPort("mlx5_0", 1, "ACTIVE", "InfiniBand", "")), List.of("ib0"));
    private static final NativeLibraryProbe.Result FOUND =
        new NativeLibraryProbe.Result("x", Path.of("/usr/lib/libx.so.1"), null, false);
    private static final NativeLibraryProbe.Result MISSING = new NativeLibraryProbe.Result("x", null, null, false);

    private final AtomicInteger disniChecks = new AtomicInteger();

    private Supplier<String> disni(final String reason)
    {
        return () ->
        {
            disniChecks.incrementAndGet();
            return reason;
        };
    }

    @Test
    void shouldBlameMissingSysfsFirstWithoutTouchingDisni()
    {
        final RdmaDevices.Availability availability = RdmaDevices.evaluate(
            new RdmaHost(false, List.of(), List.of()), MISSING, MISSING, disni(null));

        assertFalse(availability.usable());
        assertTrue(availability.reason().startsWith("no RDMA device: /sys/class/infiniband absent"),
            availability.reason());
        assertEquals(0, disniChecks.get());
    }

    @Test
    void shouldBlameDownPorts()
    {
        final RdmaDevices.Availability availability = RdmaDevices.evaluate(
            new RdmaHost(true, List.of(new RdmaPort("mlx5_0", 1, "DOWN", "InfiniBand", "")), List.of()),
            FOUND, FOUND, disni(null));

        assertTrue(availability.reason().startsWith("no ACTIVE RDMA port"), availability.reason());
    }

    @Test
    void shouldBlameMissingVerbsLibraryBeforeConnectionManager()
    {
        assertTrue(RdmaDevices.evaluate(ACTIVE_HOST, MISSING, MISSING, disni(null)).reason().contains("libibverbs"));
        assertTrue(RdmaDevices.evaluate(ACTIVE_HOST, FOUND, MISSING, disni(null)).reason().contains("librdmacm"));
        assertEquals(0, disniChecks.get());
    }

    @Test
    void shouldReportDisniFailureOnlyWhenEverythingElseIsPresent()
    {
        final RdmaDevices.Availability availability =
            RdmaDevices.evaluate(ACTIVE_HOST, FOUND, FOUND, disni("libdisni missing"));

        assertEquals("libdisni missing", availability.reason());
        assertEquals(1, disniChecks.get());
    }

    @Test
    void shouldBeUsableWhenAllChecksPass()
    {
        final RdmaDevices.Availability availability = RdmaDevices.evaluate(ACTIVE_HOST, FOUND, FOUND, disni(null));

        assertTrue(availability.usable());
        assertNull(availability.reason());
        assertEquals(List.of("ib0"), availability.netDevices());
    }

    @Test
    void shouldGiveAReasonWheneverThisHostIsUnusable()
    {
        final RdmaDevices.Availability availability = RdmaDevices.probe();

        assertEquals(availability.usable(), availability.reason() == null, String.valueOf(availability.reason()));
        if (!Files.isDirectory(Path.of("/sys/class/infiniband")))
        {
            assertTrue(availability.reason().contains("/sys/class/infiniband absent"), availability.reason());
        }
    }
}
