package io.ringwatch.nativeconfig;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The only place that reads host files. Everything else parses strings, so it can be tested from fixtures.
 */
public final class HostFiles
{
    /** {@code /proc/self/status}: {@code Cpus_allowed_list}. */
    public static final Path PROC_SELF_STATUS = Path.of("/proc/self/status");
    /** {@code /proc/self/limits}: {@code Max locked memory}. */
    public static final Path PROC_SELF_LIMITS = Path.of("/proc/self/limits");
    /** {@code /proc/meminfo}: huge page pool. */
    public static final Path PROC_MEMINFO = Path.of("/proc/meminfo");
    /** {@code /proc/mounts}: file system type of {@code /dev/shm}. */
    public static final Path PROC_MOUNTS = Path.of("/proc/mounts");
    /** {@code /proc/cmdline}: {@code isolcpus=} and {@code nohz_full=}. */
    public static final Path PROC_CMDLINE = Path.of("/proc/cmdline");
    /** Cores removed from the general scheduler. */
    public static final Path SYS_CPU_ISOLATED = Path.of("/sys/devices/system/cpu/isolated");
    /** Root of per-CPU sysfs entries. */
    public static final Path SYS_CPU = Path.of("/sys/devices/system/cpu");
    /** RDMA devices (InfiniBand, RoCE, iWARP) registered with the kernel. */
    public static final Path SYS_CLASS_INFINIBAND = Path.of("/sys/class/infiniband");
    /** Where Aeron puts its directory by default on Linux. */
    public static final Path DEV_SHM = Path.of("/dev/shm");

    private HostFiles()
    {
    }

    /**
     * Read a small text file.
     *
     * @param path file to read.
     * @return its contents, or {@code null} if it does not exist or cannot be read (sysfs files come and go
     * with hardware and permissions; absence is an answer, not an error).
     */
    public static String readOrNull(final Path path)
    {
        try
        {
            return Files.readString(path, StandardCharsets.US_ASCII);
        }
        catch (final IOException | SecurityException ex)
        {
            return null;
        }
    }

    /**
     * Read a one-line sysfs value with its trailing newline removed.
     *
     * @param path file to read.
     * @return the trimmed contents or {@code null} if unreadable.
     */
    public static String readTrimmedOrNull(final Path path)
    {
        final String text = readOrNull(path);
        return text == null ? null : text.trim();
    }

    /**
     * List a sysfs directory, such as {@code /sys/class/infiniband} or a device's {@code ports}.
     *
     * @param dir directory to list.
     * @return its entries in name order; empty if it is not a directory, what was read so far (unsorted) if
     * reading fails part way (sysfs entries come and go with hardware).
     */
    public static List<Path> sortedChildren(final Path dir)
    {
        final List<Path> children = new ArrayList<>();
        if (!Files.isDirectory(dir))
        {
            return children;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir))
        {
            stream.forEach(children::add);
        }
        catch (final IOException | SecurityException ex)
        {
            return children;
        }
        children.sort(null);
        return children;
    }
}
