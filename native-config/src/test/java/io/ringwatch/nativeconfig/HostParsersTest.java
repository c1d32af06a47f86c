package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostParsersTest
{
    private static final String LIMITS_HEADER =
        "Limit                     Soft Limit           Hard Limit           Units     \n" +
        "Max cpu time              unlimited            unlimited            seconds   \n";

    @Test
    void shouldParseFiniteLockedMemoryLimit()
    {
        final LockedMemoryLimit limit = LockedMemoryLimit.parse(LIMITS_HEADER +
            "Max locked memory         8388608              16777216             bytes     \n");

        assertEquals(new LockedMemoryLimit(8388608L, 16777216L), limit);
        assertFalse(limit.isUnlimited());
    }

    @Test
    void shouldParseUnlimitedLockedMemoryLimit()
    {
        final LockedMemoryLimit limit = LockedMemoryLimit.parse(LIMITS_HEADER +
            "Max locked memory         unlimited            unlimited            bytes     \n");

        assertTrue(limit.isUnlimited());
        assertEquals(LockedMemoryLimit.UNLIMITED, limit.hardBytes());
    }

    @Test
    void shouldRejectMalformedLockedMemoryLimit()
    {
        assertThrows(IllegalArgumentException.class,
            () -> LockedMemoryLimit.parse("Max locked memory         lots   unlimited   bytes\n"));
        assertNull(LockedMemoryLimit.parse(LIMITS_HEADER));
    }

    @Test
    void shouldParseHugePagePool()
    {
        final HugePages pages = HugePages.parse("""
            MemTotal:       32768000 kB
            AnonHugePages:         0 kB
            HugePages_Total:     512
            HugePages_Free:      500
            HugePages_Rsvd:        0
            Hugepagesize:       2048 kB
            """);

        assertEquals(new HugePages(512, 500, 2048L * 1024), pages);
    }

    @Test
    void shouldReportNoHugePagesWhenKernelListsNone()
    {
        assertNull(HugePages.parse("MemTotal:       32768000 kB\n"));
    }

    @Test
    void shouldFindFileSystemTypeOfLongestCoveringMount()
    {
        final String mounts = """
            /dev/sda1 / ext4 rw,relatime 0 0
            devtmpfs /dev devtmpfs rw,nosuid 0 0
            tmpfs /dev/shm tmpfs rw,nosuid,nodev 0 0
            /dev/sdb1 /data\\040disk xfs rw 0 0
            """;

        assertEquals("tmpfs", MountTable.fileSystemType(mounts, "/dev/shm"));
        assertEquals("tmpfs", MountTable.fileSystemType(mounts, "/dev/shm/aeron-root"));
        assertEquals("devtmpfs", MountTable.fileSystemType(mounts, "/dev/shmx"));
        assertEquals("ext4", MountTable.fileSystemType(mounts, "/tmp"));
        assertEquals("xfs", MountTable.fileSystemType(mounts, "/data disk/x"));
    }

    @Test
    void shouldSeeShmOnDiskWhenNoTmpfsIsMountedThere()
    {
        assertEquals("ext4", MountTable.fileSystemType("/dev/sda1 / ext4 rw 0 0\n", "/dev/shm"));
        assertNull(MountTable.fileSystemType("", "/dev/shm"));
    }

    @Test
    void shouldParsePortStateNames()
    {
        assertEquals("ACTIVE", RdmaPort.parseState("4: ACTIVE\n"));
        assertEquals("DOWN", RdmaPort.parseState("1: DOWN"));
        assertEquals("INIT", RdmaPort.parseState("INIT"));
        assertEquals(RdmaPort.UNKNOWN, RdmaPort.parseState(null));
        assertEquals(RdmaPort.UNKNOWN, RdmaPort.parseState("2:"));
    }

    @Test
    void shouldListDirectoriesOfLdSoConfSkippingCommentsAndIncludes()
    {
        final List<Path> dirs = NativeLibraryProbe.parseLdSoConf("""
            # Multiarch support
            /usr/local/lib/x86_64-linux-gnu
            include /etc/ld.so.conf.d/*.conf
            /usr/lib/x86_64-linux-gnu   # trailing comment
            """);

        assertEquals(List.of(Path.of("/usr/local/lib/x86_64-linux-gnu"), Path.of("/usr/lib/x86_64-linux-gnu")), dirs);
    }
}
