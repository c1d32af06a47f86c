package io.ringwatch.core.sim;

import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.process.JobLayout;
import io.ringwatch.core.process.ProcessListener;
import io.ringwatch.core.process.ProcessNotice;
import io.ringwatch.core.process.ProcessNoticeChannel;
import io.ringwatch.core.process.ProcessNoticeRelay;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolSettings;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The second level of a simulated cluster: application processes on every node, a {@link ProcessNoticeRelay} per
 * daemon, process crashes, and the checks that every surviving daemon (and so every surviving process, which reads
 * its daemon's view) ends knowing exactly the dead processes: those that crashed and those of stopped nodes.
 * <p>
 * A crashed process is seen by its daemon at once, as a child's exit is; one whose daemon is paused is seen when it
 * resumes; one whose node has stopped needs no notice. Process notices travel as control messages, with the same
 * delays, one-port model and losses.
 */
final class ProcessLevel implements ProcessNoticeChannel, ProcessListener
{
    private static final long NONE = -1;

    private final NodePort port;
    private final ClusterState truth;
    private final JobLayout layout;
    private final ProcessNoticeRelay[] relays;
    private final long[] crashedAtNs;
    private final long[] lastLearnedNs;
    private final int[] learnedBy;
    private int rank = -1;
    private SimProcessNotice lastSnapshot;
    private int crashed;
    private long messages;

    ProcessLevel(
        final NodePort port,
        final ClusterState truth,
        final DetectorNode[] nodes,
        final JobLayout layout,
        final BroadcastSchedule schedule)
    {
        this.port = port;
        this.truth = truth;
        this.layout = layout;
        relays = new ProcessNoticeRelay[nodes.length];
        for (int r = 0; r < nodes.length; r++)
        {
            relays[r] = new ProcessNoticeRelay(
                nodes[r], layout, schedule, ProtocolSettings.DEFAULT_DEDUP_CAPACITY, this, this);
        }
        crashedAtNs = new long[layout.processCount()];
        Arrays.fill(crashedAtNs, NONE);
        lastLearnedNs = new long[layout.processCount()];
        Arrays.fill(lastLearnedNs, NONE);
        learnedBy = new int[layout.processCount()];
    }

    /**
     * Draw {@code count} distinct processes to crash, each at a uniform time in {@code [firstNs, firstNs + windowNs]},
     * anywhere in the job (so some share a node with a crashing daemon).
     *
     * @return the last crash time.
     */
    long plan(final SplittableRandom random, final int count, final long firstNs, final long windowNs,
        final EventQueue queue)
    {
        final boolean[] picked = new boolean[layout.processCount()];
        long lastNs = firstNs;
        for (int i = 0; i < count; i++)
        {
            int process;
            do
            {
                process = random.nextInt(layout.processCount());
            }
            while (picked[process]);
            picked[process] = true;
            final long atNs = firstNs + (windowNs > 0 ? random.nextLong(windowNs + 1) : 0);
            queue.schedule(atNs, EventQueue.PROCESS_CRASH, -1, layout.nodeOf(process), process, null);
            lastNs = Math.max(lastNs, atNs);
        }
        return lastNs;
    }

    /**
     * The process dies now (ground truth); its daemon, if running, sees it at once.
     */
    void crash(final int process, final boolean daemonRunning, final long nowNs)
    {
        if (crashedAtNs[process] == NONE)
        {
            crashedAtNs[process] = nowNs;
            crashed++;
        }
        if (daemonRunning)
        {
            daemonSees(process, nowNs);
        }
    }

    /**
     * A daemon that was paused when one of its processes crashed sees the exit when it resumes.
     */
    void daemonSees(final int process, final long nowNs)
    {
        final int node = layout.nodeOf(process);
        rank = node;
        relays[node].onLocalProcessFailure(layout.localIndexOf(process), nowNs);
    }


    void deliver(final int to, final int from, final ProcessNotice notice, final long nowNs)
    {
        rank = to;
        relays[to].onNotice(notice, from, nowNs);
    }

    void onNodeFailure(final int daemon, final int deadNode, final long nowNs, final int reporter)
    {
        rank = daemon;
        relays[daemon].onNodeFailure(deadNode, nowNs, reporter);
    }

    public void sendProcessNotice(final int toRank, final ProcessNotice notice)
    {
        messages++;
        final SimProcessNotice snapshot;
        if (notice instanceof SimProcessNotice received)
        {
            snapshot = received;
        }
        else
        {
            if (lastSnapshot == null || !lastSnapshot.sameBroadcast(notice))
            {
                lastSnapshot = SimProcessNotice.copyOf(notice);
            }
            snapshot = lastSnapshot;
        }
        port.send(EventQueue.PROCESS_NOTICE, rank, toRank, 0, snapshot);
    }

    public void onProcessFailure(final int process, final long nowNs, final int cause, final int reporter)
    {
        if (cause == PROCESS_FAILED)
        {
            lastLearnedNs[process] = Math.max(lastLearnedNs[process], nowNs);
            learnedBy[process]++;
        }
    }

    /**
     * Completeness and accuracy at the process level, for every daemon still running. The node level's own checks
     * cover the processes of dead nodes (a daemon knows a node dead exactly when its node view says so); here:
     * every crashed process of a running node is known dead by every running daemon, and every process a running
     * daemon knows to have failed on its own really crashed or sits on a stopped node.
     */
    void check(final long seed, final List<String> out)
    {
        int missing = 0;
        int wrong = 0;
        for (int d = 0; d < relays.length; d++)
        {
            if (truth.isStopped(d))
            {
                continue;
            }
            final ProcessNoticeRelay relay = relays[d];
            for (int p = 0; p < crashedAtNs.length; p++)
            {
                if (crashedAtNs[p] != NONE && !relay.isDead(p) && missing++ < Checks.MAX_REPORTED)
                {
                    out.add("seed=" + seed + ": process completeness: daemon " + d + " never learned that process " +
                        p + " (node " + layout.nodeOf(p) + ") crashed");
                }
            }
            for (int i = 0, size = relay.deadProcesses().size(); i < size; i++)
            {
                final int p = relay.deadProcesses().rankAt(i);
                if (crashedAtNs[p] == NONE && !truth.isStopped(layout.nodeOf(p)) && wrong++ < Checks.MAX_REPORTED)
                {
                    out.add("seed=" + seed + ": process accuracy: daemon " + d + " holds process " + p +
                        " dead but it is running");
                }
            }
        }
        Checks.reportRest(out, seed, "process completeness", missing);
        Checks.reportRest(out, seed, "process accuracy", wrong);
    }

    /**
     * @return for each crashed process whose node kept running, the time from its crash to the last running daemon
     * learning it, ns, ascending; a process some daemon never learned is left out (completeness reports it).
     */
    long[] spreadNs()
    {
        final long[] spread = new long[crashed];
        int count = 0;
        for (int p = 0; p < crashedAtNs.length; p++)
        {
            if (crashedAtNs[p] != NONE && lastLearnedNs[p] != NONE && !truth.isStopped(layout.nodeOf(p)))
            {
                spread[count++] = lastLearnedNs[p] - crashedAtNs[p];
            }
        }
        final long[] result = Arrays.copyOf(spread, count);
        Arrays.sort(result);
        return result;
    }

    int crashed()
    {
        return crashed;
    }

    long messages()
    {
        return messages;
    }

    ProcessNoticeRelay relay(final int node)
    {
        return relays[node];
    }

    JobLayout layout()
    {
        return layout;
    }
}
