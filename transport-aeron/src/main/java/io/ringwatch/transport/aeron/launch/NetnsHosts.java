package io.ringwatch.transport.aeron.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * k test hosts on this machine, each a network namespace with one interface ({@code eth0}, 10.77.0.(h+1)/24) cabled
 * by a veth pair to a port ({@code h<h>}) of a bridge in a switch namespace of its own. Nothing is created in the
 * caller's namespace: no interface, address or route outside these namespaces, so runs never collide and a crashed
 * run leaves nothing on the host's own network.
 * <pre>
 *   rwns-&lt;pid&gt;-&lt;run&gt;-h0   eth0 10.77.0.1 ──veth── h0 ┐
 *   rwns-&lt;pid&gt;-&lt;run&gt;-h1   eth0 10.77.0.2 ──veth── h1 ├ br0  (rwns-&lt;pid&gt;-&lt;run&gt;-sw)
 *   ...                                               ┘ br1.. for the other sides of a partition
 * </pre>
 * Faults, all made with {@code ip} alone (tc netem is not available everywhere):
 * <ul>
 *     <li>{@link #linkDown(int)}: the cable is pulled at the switch; the host loses carrier both ways;</li>
 *     <li>{@link #partition(int[][])}: each further group of hosts moves to a bridge of its own, so groups cannot
 *     reach each other in either direction while hosts inside a group still can;</li>
 *     <li>{@link #deafen(int)}: a one-way fault: every other host gets a permanent neighbour entry with a bogus MAC
 *     for the host's address, so what they send it is addressed to nobody, while what it sends still arrives
 *     (ARP replies go to the requester's own MAC, and a permanent entry is never overwritten);</li>
 *     <li>{@link #heal()} undoes all of them.</li>
 * </ul>
 * Names carry the creating process's pid: {@link #removeLeftovers()} deletes namespaces of processes that no longer
 * run (a run killed before its cleanup), and {@link #close()} (also a shutdown hook) deletes this run's.
 */
public final class NetnsHosts implements AutoCloseable
{
    /** Every namespace this class creates starts with this. */
    public static final String PREFIX = "rwns-";

    /** The hosts' network, /24: host h is {@code SUBNET + (h + 1)}. */
    public static final String SUBNET = "10.77.0.";

    private static final String BOGUS_MAC = "02:00:00:00:00:01";
    private static final long COMMAND_TIMEOUT_S = 20;
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final String run;
    private final int hosts;
    private final int[] bridgeOf;
    private final boolean[] linkDown;
    private final boolean[] deaf;
    private final List<String> created = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread cleanup;
    private int bridges = 1;

    /**
     * Create the switch and the hosts, cabled and up.
     *
     * @param hosts how many, 2 to 250.
     * @throws IllegalStateException if a command fails; whatever was created is deleted again.
     */
    public NetnsHosts(final int hosts)
    {
        if (hosts < 2 || hosts > 250)
        {
            throw new IllegalArgumentException("hosts must be in [2, 250]: " + hosts);
        }
        this.hosts = hosts;
        this.run = PREFIX + ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet() +
            Long.toString(System.nanoTime() & 0xFFFFF, 36);
        this.bridgeOf = new int[hosts];
        this.linkDown = new boolean[hosts];
        this.deaf = new boolean[hosts];
        this.cleanup = new Thread(this::close, "netns-hosts-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try
        {
            create();
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    private void create()
    {
        final String sw = switchNamespace();
        addNamespace(sw);
        ip("-n", sw, "link", "add", "br0", "type", "bridge");
        ip("-n", sw, "link", "set", "br0", "up");
        for (int h = 0; h < hosts; h++)
        {
            final String ns = namespace(h);
            addNamespace(ns);
            ip("-n", ns, "link", "set", "lo", "up");
            ip("-n", sw, "link", "add", port(h), "type", "veth", "peer", "name", "eth0", "netns", ns);
            ip("-n", sw, "link", "set", port(h), "master", "br0");
            ip("-n", sw, "link", "set", port(h), "up");
            ip("-n", ns, "addr", "add", address(h) + "/24", "dev", "eth0");
            ip("-n", ns, "link", "set", "eth0", "up");
        }
    }

    private void addNamespace(final String name)
    {
        ip("netns", "add", name);
        created.add(name);
    }

    /**
     * Whether this process may build test hosts: it must be able to create a network namespace (root or
     * CAP_NET_ADMIN, {@code ip} from iproute2 installed, namespaces allowed in this container).
     *
     * @return null if it can, else why not.
     */
    public static String unavailableReason()
    {
        final String probe = PREFIX + ProcessHandle.current().pid() + "-probe";
        try
        {
            final Result add = exec(List.of("ip", "netns", "add", probe));
            if (add.exitCode != 0)
            {
                return "cannot create a network namespace (needs root or CAP_NET_ADMIN and iproute2): " +
                    "'ip netns add' exited " + add.exitCode + ": " + add.output.trim();
            }
            exec(List.of("ip", "netns", "del", probe));
            return null;
        }
        catch (final UncheckedIOException ex)
        {
            return "cannot run 'ip' (install iproute2): " + ex.getCause().getMessage();
        }
    }

    /**
     * Delete namespaces named by this class whose creating process no longer runs, with anything still running in
     * them: what a run killed before its cleanup left behind.
     *
     * @return the namespaces deleted.
     */
    public static List<String> removeLeftovers()
    {
        final List<String> removed = new ArrayList<>();
        final Result list = exec(List.of("ip", "netns", "list"));
        for (final String line : list.output.split("\n"))
        {
            final String name = line.trim().split("\\s+")[0];
            if (!name.startsWith(PREFIX))
            {
                continue;
            }
            final String[] parts = name.substring(PREFIX.length()).split("-");
            long pid = -1;
            try
            {
                pid = Long.parseLong(parts[0]);
            }
            catch (final NumberFormatException ignore)
            {
                // not one of ours after all, or mangled: leave it
            }
            if (pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
            {
                continue;
            }
            if (pid > 0)
            {
                deleteNamespace(name);
                removed.add(name);
            }
        }
        return removed;
    }

    private static void deleteNamespace(final String name)
    {
        // a process left inside keeps the namespace's interfaces alive after the name is gone
        final Result pids = exec(List.of("ip", "netns", "pids", name));
        for (final String pid : pids.output.split("\\s+"))
        {
            if (!pid.isEmpty())
            {
                try
                {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                }
                catch (final NumberFormatException ignore)
                {
                    // not a pid: nothing to kill
                }
            }
        }
        exec(List.of("ip", "netns", "del", name));
    }

    /**
     * @return how many hosts.
     */
    public int hosts()
    {
        return hosts;
    }

    /**
     * @param host a host.
     * @return its namespace's name.
     */
    public String namespace(final int host)
    {
        return run + "-h" + host;
    }

    /**
     * @return the switch's namespace.
     */
    public String switchNamespace()
    {
        return run + "-sw";
    }

    /**
     * @param host a host.
     * @return its IPv4 address, reachable only from the other hosts' namespaces.
     */
    public String address(final int host)
    {
        return SUBNET + (host + 1);
    }

    /**
     * @param host a host.
     * @return the command prefix that runs a command on that host: {@code ip netns exec NAME} (which execs, so the
     * started process is the command itself and signals reach it).
     */
    public List<String> launcher(final int host)
    {
        return List.of("ip", "netns", "exec", namespace(host));
    }

    /**
     * Pull the host's cable at the switch: no frame in or out until {@link #linkUp(int)}.
     *
     * @param host a host.
     * @return {@code System.nanoTime()} once the link is down.
     */
    public synchronized long linkDown(final int host)
    {
        ip("-n", switchNamespace(), "link", "set", port(host), "down");
        linkDown[host] = true;
        return System.nanoTime();
    }

    /**
     * Plug the host's cable back in.
     *
     * @param host a host.
     * @return {@code System.nanoTime()} once the link is up.
     */
    public synchronized long linkUp(final int host)
    {
        ip("-n", switchNamespace(), "link", "set", port(host), "up");
        linkDown[host] = false;
        return System.nanoTime();
    }

    /**
     * A one-way fault: the host can still send, but nothing sent to it arrives.
     *
     * @param host a host.
     * @return {@code System.nanoTime()} once every other host addresses it wrongly.
     */
    public synchronized long deafen(final int host)
    {
        for (int other = 0; other < hosts; other++)
        {
            if (other != host)
            {
                ip("-n", namespace(other), "neigh", "replace", address(host), "lladdr", BOGUS_MAC, "dev", "eth0",
                    "nud", "permanent");
            }
        }
        deaf[host] = true;
        return System.nanoTime();
    }

    /**
     * Undo {@link #deafen(int)}: the others' bogus entries go, and they resolve the host's address afresh.
     *
     * @param host a host.
     * @return {@code System.nanoTime()} once done.
     */
    public synchronized long undeafen(final int host)
    {
        for (int other = 0; other < hosts; other++)
        {
            if (other != host)
            {
                ip("-n", namespace(other), "neigh", "del", address(host), "dev", "eth0");
            }
        }
        deaf[host] = false;
        return System.nanoTime();
    }

    /**
     * Split the hosts into groups that cannot reach each other (both directions); hosts in no group stay with the
     * first. Undone by {@link #heal()}.
     *
     * @param groups host indices, one array per side.
     * @return {@code System.nanoTime()} once every group is on its own bridge.
     */
    public synchronized long partition(final int[]... groups)
    {
        while (bridges < groups.length)
        {
            final String bridge = "br" + bridges++;
            ip("-n", switchNamespace(), "link", "add", bridge, "type", "bridge");
            ip("-n", switchNamespace(), "link", "set", bridge, "up");
        }
        for (int g = 1; g < groups.length; g++)
        {
            for (final int host : groups[g])
            {
                moveTo(host, g);
            }
        }
        return System.nanoTime();
    }

    /**
     * Undo every fault: all hosts back on one bridge, links up, no bogus neighbour entries.
     *
     * @return {@code System.nanoTime()} once healed.
     */
    public synchronized long heal()
    {
        for (int h = 0; h < hosts; h++)
        {
            if (bridgeOf[h] != 0)
            {
                moveTo(h, 0);
            }
            if (linkDown[h])
            {
                linkUp(h);
            }
            if (deaf[h])
            {
                undeafen(h);
            }
        }
        return System.nanoTime();
    }

    private void moveTo(final int host, final int bridge)
    {
        ip("-n", switchNamespace(), "link", "set", port(host), "master", "br" + bridge);
        bridgeOf[host] = bridge;
    }

    private static String port(final int host)
    {
        return "h" + host;
    }

    /**
     * Take the host off the switch without touching its link: the switch drops whatever it sends and sends it
     * nothing, at once and both ways (a carrier change would take the host's kernel up to a second to undo).
     * Undone by {@link #heal()}.
     *
     * @param host a host.
     * @return {@code System.nanoTime()} once cut off.
     */
    public synchronized long isolate(final int host)
    {
        ip("-n", switchNamespace(), "link", "set", port(host), "nomaster");
        bridgeOf[host] = -1;
        return System.nanoTime();
    }

    /**
     * Take a host off the switch for {@code durationMs} and put it back, timed inside the switch's namespace by one
     * shell: the gap between the two changes does not include starting a process from the JVM, which on a loaded
     * host took close to a second (a "short" cut then is not short).
     *
     * @param host       a host.
     * @param durationMs how long.
     * @return when it was cut off and healed, as the shell saw them (from the cut done to the heal done).
     */
    public synchronized ShellSpan isolateFor(final int host, final long durationMs)
    {
        return timedCut("link set " + port(host) + " nomaster\\n", "link set " + port(host) + " master br0\\n",
            durationMs);
    }

    /**
     * {@link #partition(int[][])} for {@code durationMs}, then heal, timed inside the switch's namespace as in
     * {@link #isolateFor(int, long)}.
     *
     * @param durationMs how long.
     * @param groups     host indices, one array per side.
     * @return when the groups were apart, as the shell saw it.
     */
    public synchronized ShellSpan partitionFor(final long durationMs, final int[]... groups)
    {
        while (bridges < groups.length)
        {
            final String bridge = "br" + bridges++;
            ip("-n", switchNamespace(), "link", "add", bridge, "type", "bridge");
            ip("-n", switchNamespace(), "link", "set", bridge, "up");
        }
        final StringBuilder cut = new StringBuilder();
        final StringBuilder heal = new StringBuilder();
        for (int g = 1; g < groups.length; g++)
        {
            for (final int host : groups[g])
            {
                cut.append("link set ").append(port(host)).append(" master br").append(g).append("\\n");
                heal.append("link set ").append(port(host)).append(" master br0\\n");
            }
        }
        return timedCut(cut.toString(), heal.toString(), durationMs);
    }

    private ShellSpan timedCut(final String cutBatch, final String healBatch, final long durationMs)
    {
        // bash's EPOCHREALTIME needs no process; printf is a builtin; one ip process per change
        final String script = "printf '" + cutBatch + "' | ip -batch - && t0=$EPOCHREALTIME && sleep " +
            String.format(Locale.ROOT, "%.3f", durationMs / 1000.0) + " && printf '" + healBatch +
            "' | ip -batch - && t1=$EPOCHREALTIME && echo \"$t0 $t1\"";
        final Result result = exec(List.of("ip", "netns", "exec", switchNamespace(), "env", "LC_ALL=C", "bash", "-c",
            script));
        final String[] times = result.output.trim().split("\\s+");
        if (result.exitCode != 0 || times.length != 2)
        {
            throw new IllegalStateException("timed cut failed (" + result.exitCode + "): " + result.output.trim());
        }
        return ShellSpan.of(times[0], times[1]);
    }

    /**
     * Kill whatever still runs in the hosts' namespaces and delete them and the switch. Idempotent; also run by a
     * shutdown hook.
     */
    public void close()
    {
        if (!ClusterStart.beginClose(closed, cleanup))
        {
            return;
        }
        for (int i = created.size() - 1; i >= 0; i--)
        {
            deleteNamespace(created.get(i));
        }
    }

    private static void ip(final String... args)
    {
        final List<String> cmd = new ArrayList<>(args.length + 1);
        cmd.add("ip");
        cmd.addAll(List.of(args));
        final Result result = exec(cmd);
        if (result.exitCode != 0)
        {
            throw new IllegalStateException(String.join(" ", cmd) + " exited " + result.exitCode + ": " +
                result.output.trim());
        }
    }

    private record Result(int exitCode, String output)
    {
    }

    private static Result exec(final List<String> cmd)
    {
        try
        {
            final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            final byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(COMMAND_TIMEOUT_S, TimeUnit.SECONDS))
            {
                p.destroyForcibly();
                return new Result(-1, String.join(" ", cmd) + " did not finish within " + COMMAND_TIMEOUT_S + "s");
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot run " + String.join(" ", cmd), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }
}
