package io.ringwatch.nativeconfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Examines the host a node will run on and reports, line by line, what is fine ({@code OK}), what will cost
 * latency or limit a transport ({@code WARN}), and what prevents running ({@code FAIL}), each with advice.
 * <p>
 * Run as {@code java -cp ... io.ringwatch.nativeconfig.Doctor [--agents N]}; exits 1 if any line is
 * {@code FAIL}, 0 otherwise. RDMA being absent is a {@code WARN}: the UDP and shared-memory transports do not
 * need it.
 */
public final class Doctor
{
    /** Section names, in report order. */
    public static final List<String> SECTIONS = List.of(
        "cpu", "pinning", "realtime", "memlock", "shm", "files", "hugepages", "governor", "rdma", "libraries",
        "profile", "quiet");

    /** Below this, {@code /dev/shm} cannot hold even a few Aeron publications' term buffers. */
    static final long SHM_FREE_WARN_BYTES = 512L * 1024 * 1024;

    /** Enough pinned memory for the heartbeat slot and a handful of queue pairs and completion queues. */
    static final long MEMLOCK_WARN_BYTES = 8L * 1024 * 1024;

    /**
     * Severity of one line.
     */
    public enum Status
    {
        /** Nothing to do. */
        OK,
        /** Works, but costs latency or rules out a transport; read the advice. */
        WARN,
        /** A node cannot run as configured. */
        FAIL
    }

    /**
     * One line of the report.
     *
     * @param section one of {@link #SECTIONS}.
     * @param status  severity.
     * @param detail  what was found.
     * @param advice  what to do about it; empty when nothing.
     */
    public record Check(String section, Status status, String detail, String advice)
    {
    }

    /**
     * The full report.
     *
     * @param checks lines in section order.
     */
    public record Report(List<Check> checks)
    {
        /**
         * @return true if any line is {@link Status#FAIL}.
         */
        public boolean hasFailures()
        {
            return checks.stream().anyMatch(c -> c.status() == Status.FAIL);
        }

        /**
         * @param section a section name.
         * @return its lines.
         */
        public List<Check> section(final String section)
        {
            return checks.stream().filter(c -> c.section().equals(section)).toList();
        }

        /**
         * @return aligned multi-line text, one line per check plus an indented advice line where there is advice.
         */
        public String render()
        {
            final StringBuilder sb = new StringBuilder("Ringwatch doctor\n");
            for (final Check check : checks)
            {
                sb.append(String.format(Locale.ROOT, "%-4s  %-9s  %s%n", check.status(), check.section(),
                    check.detail()));
                if (!check.advice().isEmpty())
                {
                    sb.append(String.format(Locale.ROOT, "%-4s  %-9s    -> %s%n", "", "", check.advice()));
                }
            }
            final long warnings = checks.stream().filter(c -> c.status() == Status.WARN).count();
            final long failures = checks.stream().filter(c -> c.status() == Status.FAIL).count();
            sb.append(String.format(Locale.ROOT, "%d check(s): %d warning(s), %d failure(s)%n",
                checks.size(), warnings, failures));
            return sb.toString();
        }
    }

    private Doctor()
    {
    }

    /**
     * Examine the running host.
     *
     * @param agents how many agents (nodes) this host is meant to run; drives the profile recommendation.
     * @return the report.
     */
    public static Report examine(final int agents)
    {
        return examine(agents, defaultAeronDir());
    }

    /**
     * Examine the running host.
     *
     * @param agents   how many agents (nodes) this host is meant to run; drives the profile recommendation.
     * @param aeronDir the Aeron directory the driver and nodes use (slot and view files live in it).
     * @return the report.
     */
    public static Report examine(final int agents, final Path aeronDir)
    {
        final List<Check> checks = new ArrayList<>();
        final HostCpus cpus = HostCpus.probe();

        checkCpus(cpus, checks);
        checkPinning(cpus, checks);
        checkRealtime(checks);
        checkMemlock(parseOrNull(HostFiles.PROC_SELF_LIMITS, LockedMemoryLimit::parse), checks);
        checkShm(HostFiles.readOrNull(HostFiles.PROC_MOUNTS), checks);
        checkOthersCannotWrite("/dev/shm", HostFiles.DEV_SHM, System.getProperty("user.name"), checks);
        checkOthersCannotWrite("Aeron directory", aeronDir, System.getProperty("user.name"), checks);
        checkHugePages(parseOrNull(HostFiles.PROC_MEMINFO, HugePages::parse), checks);
        checkGovernor(cpus, checks);
        RdmaReadiness.examine(checks);
        checkProfile(agents, cpus, checks);
        final QuietHost quietHost = QuietHost.probe();
        checkQuiet(quietHost, checks);
        checkIrqbalance(irqbalanceRunning(), quietHost.quietCores(), checks);

        return new Report(List.copyOf(checks));
    }

    static void checkCpus(final HostCpus cpus, final List<Check> checks)
    {
        checks.add(new Check("cpu", Status.OK, cpus.availableCores() + " online core(s) " +
            CpuList.format(cpus.onlineCores()) + ", allowed " + CpuList.format(cpus.allowedCores()), ""));

        final BitSet isolated = cpus.isolatedCores();
        if (isolated.isEmpty())
        {
            checks.add(new Check("cpu", Status.WARN, "no isolated cores (isolcpus/nohz_full unset)",
                "for low-latency, boot with isolcpus=<cores> nohz_full=<cores> and pin agents there, " +
                "so the scheduler and timer tick leave them alone"));
        }
        else
        {
            final BitSet usable = cpus.isolatedCores();
            usable.and(cpus.allowedCores());
            checks.add(new Check("cpu", usable.isEmpty() ? Status.WARN : Status.OK,
                "isolated cores " + CpuList.format(isolated) + ", of which allowed here: " +
                (usable.isEmpty() ? "none" : CpuList.format(usable)),
                usable.isEmpty() ? "this process cannot run on the isolated cores; widen its cpuset/taskset" : ""));
        }
    }

    static void checkPinning(final HostCpus cpus, final List<Check> checks)
    {
        final String unavailable = CpuPinning.nativeAffinityUnavailableReason();
        if (unavailable != null)
        {
            checks.add(new Check("pinning", Status.WARN, "thread pinning unavailable: " + unavailable,
                "low-latency cannot pin agents; use low-noise or fix JNA (jna.tmpdir must be writable and exec)"));
            return;
        }

        // pin a throwaway thread so the caller's own affinity is untouched
        final int cpu = cpus.spareCores().nextSetBit(0);
        final AtomicReference<PinResult> result = new AtomicReference<>();
        final Thread probe = new Thread(() -> result.set(new CpuPinning(cpus).pinCurrentThread(cpu)),
            "ringwatch-doctor-pin");
        probe.start();
        try
        {
            probe.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }

        final PinResult pin = result.get();
        if (pin != null && pin.pinned())
        {
            checks.add(new Check("pinning", Status.OK, "pinned a test thread to CPU " + cpu +
                " through OpenHFT affinity", ""));
        }
        else
        {
            checks.add(new Check("pinning", Status.WARN, "could not pin a test thread: " +
                (pin == null ? "interrupted" : pin.reason()), "low-latency cannot pin agents; use low-noise"));
        }
    }

    static void checkRealtime(final List<Check> checks)
    {
        final RealtimePriority.Result raised = RealtimePriority.probe();
        if (raised.applied())
        {
            checks.add(new Check("realtime", Status.OK, "a test thread could be made SCHED_FIFO", ""));
        }
        else
        {
            checks.add(new Check("realtime", Status.WARN, "no SCHED_FIFO for agent threads: " + raised.reason(),
                "low-noise agents then wait for the fair scheduler to wake them: keep δ well above the host's " +
                "stalls, or grant CAP_SYS_NICE / ulimit -r and set ringwatch.realtime.priority"));
        }
    }

    static void checkMemlock(final LockedMemoryLimit limit, final List<Check> checks)
    {
        if (limit == null)
        {
            checks.add(new Check("memlock", Status.WARN, "locked-memory limit unreadable (/proc/self/limits)",
                "RDMA registration may fail; check ulimit -l"));
        }
        else if (limit.isUnlimited() || limit.softBytes() >= MEMLOCK_WARN_BYTES)
        {
            checks.add(new Check("memlock", Status.OK, "ulimit -l " + LockedMemoryLimit.describe(limit.softBytes()) +
                " (hard " + LockedMemoryLimit.describe(limit.hardBytes()) + ")", ""));
        }
        else
        {
            checks.add(new Check("memlock", Status.WARN, "ulimit -l only " +
                LockedMemoryLimit.describe(limit.softBytes()) + " (hard " +
                LockedMemoryLimit.describe(limit.hardBytes()) + ")",
                "RDMA pins queue pairs and registered memory; set 'memlock unlimited' in " +
                "/etc/security/limits.conf or LimitMEMLOCK=infinity for the service (not needed for UDP/IPC)"));
        }
    }

    /**
     * @return {@code aeron.dir} if set, else Aeron's default on Linux: {@code /dev/shm/aeron-<user>}.
     */
    static Path defaultAeronDir()
    {
        final String dir = System.getProperty("aeron.dir");
        return dir != null ? Path.of(dir) : HostFiles.DEV_SHM.resolve("aeron-" + System.getProperty("user.name"));
    }

    /**
     * Warn when users other than {@code user} can write into {@code dir} (or, while it does not exist, could create
     * it): whoever writes there can create or replace heartbeat slot, view and Aeron files, and so forge heartbeats
     * or views without the cluster key.
     */
    static void checkOthersCannotWrite(final String what, final Path dir, final String user, final List<Check> checks)
    {
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing))
        {
            existing = existing.getParent();
        }
        if (existing == null)
        {
            return;
        }
        try
        {
            final int mode = (Integer)Files.getAttribute(existing, "unix:mode");
            final String owner = Files.getOwner(existing).getName();
            final boolean sticky = (mode & 01000) != 0;
            final boolean othersWrite = (mode & 0002) != 0;
            final boolean groupWrite = (mode & 0020) != 0;
            final String modeText = String.format(Locale.ROOT, "%04o", mode & 07777);
            if (!existing.equals(dir.toAbsolutePath()))
            {
                if (othersWrite || groupWrite || !owner.equals(user))
                {
                    checks.add(new Check("files", Status.WARN, what + " " + dir + " does not exist yet, and other " +
                        "users can create it first in " + existing + " (mode " + modeText + ", owner " + owner + ")",
                        "create it yourself before the driver starts: mkdir -m 700 " + dir));
                }
                else
                {
                    checks.add(new Check("files", Status.OK, what + " " + dir + " does not exist yet; only " + owner +
                        " can create it", ""));
                }
                return;
            }
            if (othersWrite || groupWrite || !owner.equals(user))
            {
                checks.add(new Check("files", Status.WARN, what + " " + dir + " lets other users write (mode " +
                    modeText + (sticky ? ", sticky: they can create names, not remove yours" : "") + ", owner " +
                    owner + ")", existing.equals(HostFiles.DEV_SHM) ?
                    "keep aeron.dir a directory of your own inside it (mode 700; ringwatch creates its slot and view " +
                    "files 0600 there)" : "chmod go-w " + dir + " (and own it: the driver, nodes and stat run as " +
                    user + ")"));
            }
            else
            {
                checks.add(new Check("files", Status.OK, what + " " + dir + " is writable by " + owner +
                    " only (mode " + modeText + ")", ""));
            }
        }
        catch (final IOException | UnsupportedOperationException | IllegalArgumentException ex)
        {
            checks.add(new Check("files", Status.WARN, "permissions of " + existing + " unreadable: " + ex, ""));
        }
    }

    static void checkShm(final String procMounts, final List<Check> checks)
    {
        final Path shm = HostFiles.DEV_SHM;
        if (!Files.isDirectory(shm))
        {
            checks.add(new Check("shm", Status.FAIL, shm + " does not exist",
                "Aeron's default directory lives there; mount a tmpfs on /dev/shm or set aeron.dir to a tmpfs"));
            return;
        }

        final String type = procMounts == null ? null : MountTable.fileSystemType(procMounts, shm.toString());
        if ("tmpfs".equals(type))
        {
            checks.add(new Check("shm", Status.OK, shm + " is tmpfs", ""));
        }
        else
        {
            checks.add(new Check("shm", Status.WARN, shm + " is " + (type == null ? "of unknown type" : type),
                "memory-mapped Aeron files on a disk-backed file system get written back and stall; " +
                "use a tmpfs for aeron.dir"));
        }

        try
        {
            final long usable = Files.getFileStore(shm).getUsableSpace();
            if (usable >= SHM_FREE_WARN_BYTES)
            {
                checks.add(new Check("shm", Status.OK, Sizes.format(usable) + " free in " + shm, ""));
            }
            else
            {
                checks.add(new Check("shm", Status.WARN, "only " + Sizes.format(usable) + " free in " + shm,
                    "each Aeron publication maps 3 term buffers; free space or remount with a larger size=, " +
                    "or shrink term lengths"));
            }
        }
        catch (final IOException | SecurityException ex)
        {
            checks.add(new Check("shm", Status.WARN, "free space of " + shm + " unreadable: " + ex.getMessage(), ""));
        }
    }

    static void checkHugePages(final HugePages hugePages, final List<Check> checks)
    {
        if (hugePages == null)
        {
            checks.add(new Check("hugepages", Status.OK, "no huge page pool reported (not required by Ringwatch)",
                ""));
            return;
        }
        checks.add(new Check("hugepages", Status.OK, hugePages.total() + " huge page(s) of " +
            Sizes.format(hugePages.pageSizeBytes()) + ", " + hugePages.free() +
            " free (optional; Ringwatch's slots and buffers are small)", ""));
    }

    static void checkGovernor(final HostCpus cpus, final List<Check> checks)
    {
        final TreeSet<String> governors = new TreeSet<>();
        final BitSet allowed = cpus.allowedCores();
        for (int cpu = allowed.nextSetBit(0); cpu >= 0; cpu = allowed.nextSetBit(cpu + 1))
        {
            final String governor = HostFiles.readTrimmedOrNull(
                HostFiles.SYS_CPU.resolve("cpu" + cpu).resolve("cpufreq").resolve("scaling_governor"));
            if (governor != null && !governor.isEmpty())
            {
                governors.add(governor);
            }
        }
        checks.add(governorCheck(governors));
    }

    static Check governorCheck(final TreeSet<String> governors)
    {
        if (governors.isEmpty())
        {
            return new Check("governor", Status.OK,
                "CPU frequency governor not exposed (virtual machine or no cpufreq driver)", "");
        }
        if (governors.size() == 1 && governors.contains("performance"))
        {
            return new Check("governor", Status.OK, "CPU frequency governor: performance", "");
        }
        return new Check("governor", Status.WARN, "CPU frequency governor(s): " + String.join(", ", governors),
            "frequency scaling and deep C-states add wake-up latency; use the performance governor " +
            "(cpupower frequency-set -g performance) on cores running low-latency agents");
    }

    static void checkProfile(final int agents, final HostCpus cpus, final List<Check> checks)
    {
        final BitSet spare = cpus.spareCores();
        final TuningProfile.Recommendation rec = TuningProfile.recommend(agents, spare.cardinality());
        checks.add(new Check("profile", Status.OK, "recommend " + rec.profile().cliName() + " for " + agents +
            " agent(s) on spare cores " + CpuList.format(spare) + ": " + rec.reason(), ""));
    }

    /**
     * What a performance engineer needs for quiet noise and jitter numbers ({@code ringwatch-perf.jar noise}): the
     * application's and the agents' cores isolated, tickless, at a fixed frequency, without a busy SMT sibling and
     * without device interrupts. Every WARN says how to fix it; none of them stops a node from running.
     */
    static void checkQuiet(final QuietHost host, final List<Check> checks)
    {
        final BitSet quiet = host.quietCores();
        if (host.isolated().isEmpty())
        {
            checks.add(new Check("quiet", Status.WARN, "no isolated cores: kernel threads, JIT and GC threads may run " +
                "on the application's cores", "boot with isolcpus=managed_irq,domain," + CpuList.format(quiet) +
                " (every core but the housekeeping CPU 0), then start the application and the agents there with " +
                "taskset"));
        }
        else
        {
            checks.add(new Check("quiet", Status.OK, "isolated cores " + CpuList.format(host.isolated()), ""));
        }

        if (host.nohzFull().isEmpty())
        {
            checks.add(new Check("quiet", Status.WARN, "no nohz_full cores: the scheduler tick interrupts every " +
                "core CONFIG_HZ times a second, application cores included", "boot with nohz_full=" +
                CpuList.format(quiet) + " rcu_nocbs=" + CpuList.format(quiet) +
                " (a kernel built with CONFIG_NO_HZ_FULL); a tickless core must run a single thread to stay quiet"));
        }
        else
        {
            final BitSet ticking = (BitSet)host.isolated().clone();
            ticking.andNot(host.nohzFull());
            checks.add(ticking.isEmpty() ?
                new Check("quiet", Status.OK, "nohz_full cores " + CpuList.format(host.nohzFull()), "") :
                new Check("quiet", Status.WARN, "isolated cores " + CpuList.format(ticking) + " still get the tick",
                    "add them to nohz_full= and rcu_nocbs="));
        }

        if (host.governors().isEmpty())
        {
            checks.add(new Check("quiet", Status.OK, "no cpufreq governor exposed (virtual machine?): the " +
                "frequency is the hypervisor's to change, and its steal time is noise no guest setting removes", ""));
        }
        else if (host.governors().size() == 1 && host.governors().contains("performance"))
        {
            checks.add(new Check("quiet", Status.OK, "governor performance on every online core", ""));
        }
        else
        {
            checks.add(new Check("quiet", Status.WARN, "governor(s) " + String.join(", ", host.governors()) +
                ": the clock changes under the measurement", "cpupower frequency-set -g performance, and limit " +
                "C-states (cpupower idle-set -D 10 or processor.max_cstate=1) so wake-ups do not pay for deep sleep"));
        }

        final String smt = host.smtPairs();
        checks.add(smt.isEmpty() ?
            new Check("quiet", Status.OK, "no SMT siblings: one hardware thread per core", "") :
            new Check("quiet", Status.WARN, "SMT on, hardware threads sharing a core: " + smt,
                "an agent on the sibling of an application core shares its execution units and caches: echo off > " +
                "/sys/devices/system/cpu/smt/control (or boot with nosmt), or leave those siblings idle"));

        if (host.irqAffinity().isEmpty())
        {
            checks.add(new Check("quiet", Status.WARN, "IRQ affinity unknown (/proc/irq unreadable)",
                "check /proc/irq/*/smp_affinity_list on the host"));
        }
        else
        {
            final TreeSet<Integer> reaching = host.irqsReaching(quiet);
            checks.add(reaching.isEmpty() ?
                new Check("quiet", Status.OK, "no device IRQ may land on cores " + CpuList.format(quiet), "") :
                new Check("quiet", Status.WARN, reaching.size() + " of " + host.irqAffinity().size() +
                    " IRQs may land on cores " + CpuList.format(quiet) + " (e.g. IRQ " + reaching.first() + ")",
                    "boot with irqaffinity=0 (plus managed_irq in isolcpus=), or write the housekeeping cores to " +
                    "/proc/irq/*/smp_affinity_list; stop irqbalance or set IRQBALANCE_BANNED_CPULIST=" +
                    CpuList.format(quiet)));
        }
    }

    /**
     * irqbalance moves device interrupts every ten seconds, onto the application's cores too, and undoes an
     * affinity written by hand: the IRQ check above may pass at boot and no longer during the measurement.
     */
    static void checkIrqbalance(final boolean running, final BitSet quiet, final List<Check> checks)
    {
        checks.add(running ?
            new Check("quiet", Status.WARN, "irqbalance runs: it moves interrupts onto any core every 10 s and " +
                "rewrites hand-set affinities", "systemctl stop irqbalance, or set IRQBALANCE_BANNED_CPULIST=" +
                CpuList.format(quiet) + " in /etc/default/irqbalance and restart it") :
            new Check("quiet", Status.OK, "irqbalance not running", ""));
    }

    private static boolean irqbalanceRunning()
    {
        return ProcessHandle.allProcesses().anyMatch(p ->
            "irqbalance".equals(HostFiles.readTrimmedOrNull(Path.of("/proc", Long.toString(p.pid()), "comm"))));
    }

    private interface Parser<T>
    {
        T parse(String text);
    }

    private static <T> T parseOrNull(final Path path, final Parser<T> parser)
    {
        final String text = HostFiles.readOrNull(path);
        if (text == null)
        {
            return null;
        }
        try
        {
            return parser.parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
    }

    /**
     * Print the report for this host.
     *
     * @param args optional {@code --agents N} (default 1).
     */
    public static void main(final String[] args)
    {
        int agents = 1;
        Path aeronDir = defaultAeronDir();
        for (int i = 0; i < args.length; i++)
        {
            if ("--aeron-dir".equals(args[i]) && i + 1 < args.length)
            {
                aeronDir = Path.of(args[++i]);
            }
            else if ("--agents".equals(args[i]) && i + 1 < args.length)
            {
                try
                {
                    agents = Integer.parseInt(args[++i]);
                }
                catch (final NumberFormatException ex)
                {
                    agents = 0;
                }
                if (agents < 1)
                {
                    System.err.println("--agents must be a positive integer: " + args[i]);
                    System.exit(2);
                }
            }
            else
            {
                System.err.println("usage: Doctor [--agents N] [--aeron-dir DIR]");
                System.exit(2);
            }
        }

        final Report report = examine(agents, aeronDir);
        System.out.print(report.render());
        System.exit(report.hasFailures() ? 1 : 0);
    }
}
