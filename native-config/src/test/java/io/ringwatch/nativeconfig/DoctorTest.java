package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DoctorTest
{
    @Test
    void shouldReportEverySectionOnThisHost()
    {
        final Doctor.Report report = Doctor.examine(8);
        final String text = report.render();

        for (final String section : Doctor.SECTIONS)
        {
            assertFalse(report.section(section).isEmpty(), "missing section " + section + " in\n" + text);
        }
        assertTrue(text.startsWith("Ringwatch doctor\n"), text);
        assertTrue(text.contains(report.checks().size() + " check(s)"), text);
    }

    @Test
    void shouldRecommendLowNoiseForMoreAgentsThanCores()
    {
        final int agents = HostCpus.probe().allowedCores().cardinality() + 1;

        final Doctor.Check profile = Doctor.examine(agents).section("profile").get(0);

        assertTrue(profile.detail().startsWith("recommend low-noise"), profile.detail());
    }

    @Test
    void shouldWarnAboutSmallMemlockLimitButNotUnlimited()
    {
        final List<Doctor.Check> checks = new ArrayList<>();
        Doctor.checkMemlock(new LockedMemoryLimit(65536, 65536), checks);
        Doctor.checkMemlock(new LockedMemoryLimit(LockedMemoryLimit.UNLIMITED, LockedMemoryLimit.UNLIMITED), checks);

        assertEquals(Doctor.Status.WARN, checks.get(0).status());
        assertTrue(checks.get(0).advice().contains("memlock unlimited"), checks.get(0).advice());
        assertEquals(Doctor.Status.OK, checks.get(1).status());
    }

    @Test
    void shouldWarnAboutPowerSavingGovernor()
    {
        assertEquals(Doctor.Status.WARN, Doctor.governorCheck(new TreeSet<>(List.of("powersave"))).status());
        assertEquals(Doctor.Status.OK, Doctor.governorCheck(new TreeSet<>(List.of("performance"))).status());
        assertEquals(Doctor.Status.OK, Doctor.governorCheck(new TreeSet<>()).status());
    }

    @Test
    void shouldWarnNotFailWhenRdmaIsAbsent()
    {
        final List<Doctor.Check> checks = new ArrayList<>();
        RdmaReadiness.checkDevices(new RdmaHost(false, List.of(), List.of()), Path.of("/nonexistent"), checks);

        assertEquals(1, checks.size());
        assertEquals(Doctor.Status.WARN, checks.get(0).status());
        assertTrue(checks.get(0).detail().contains("/sys/class/infiniband absent"), checks.get(0).detail());
    }

    @TempDir
    Path tempDir;

    @Test
    void shouldWarnWhenOtherUsersCanWriteTheAeronDirectoryOrCreateIt() throws Exception
    {
        final String user = System.getProperty("user.name");
        final Path own = Files.createDirectory(tempDir.resolve("own"));
        Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwx------"));
        final Path open = Files.createDirectory(tempDir.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertEquals(Doctor.Status.OK, fileCheck(own, user).status());
        final Doctor.Check writable = fileCheck(open, user);
        assertEquals(Doctor.Status.WARN, writable.status(), writable.detail());
        assertTrue(writable.detail().contains("lets other users write (mode 0777"), writable.detail());
        assertTrue(writable.advice().contains("chmod go-w"), writable.advice());

        final Doctor.Check squattable = fileCheck(open.resolve("aeron-x"), user);
        assertEquals(Doctor.Status.WARN, squattable.status(), squattable.detail());
        assertTrue(squattable.advice().contains("mkdir -m 700"), squattable.advice());
        assertEquals(Doctor.Status.OK, fileCheck(own.resolve("aeron-x"), user).status());

        assertEquals(Doctor.Status.WARN, fileCheck(own, "somebody-else").status(), "owned by another user");
    }

    private static Doctor.Check fileCheck(final Path dir, final String user)
    {
        final List<Doctor.Check> checks = new ArrayList<>();
        Doctor.checkOthersCannotWrite("Aeron directory", dir, user, checks);
        assertEquals(1, checks.size());
        return checks.get(0);
    }
}
