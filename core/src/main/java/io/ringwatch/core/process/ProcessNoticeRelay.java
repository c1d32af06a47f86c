package io.ringwatch.core.process;

import io.ringwatch.core.broadcast.BroadcastForwarder;
import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.protocol.BroadcastIdSet;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;

/**
 * The process level of one daemon (paper 001, Sections 4.4–4.6): it announces the deaths of the application
 * processes its node hosts, and relays the announcements of other daemons, over the same broadcast schedule and with
 * the same rules as the node level's failure notices:
 * <ul>
 *     <li>participants are the node ranks outside D_msg, the dead set of the source's {@link DetectorNode} when it
 *     started, and every daemon computes its targets from D_msg, never from its own view;</li>
 *     <li>each broadcast id is forwarded once ({@link BroadcastIdSet});</li>
 *     <li>a notice merges: it carries every process of the source's node seen dead so far;</li>
 *     <li>a copy from a daemon this node holds dead is dropped, as the node level drops its frames.</li>
 * </ul>
 * A node's death is the death of all its processes: the driver passes every node failure its {@link DetectorNode}
 * reports to {@link #onNodeFailure}, and the listener hears of each of the node's processes not already dead. The
 * relay holds no node-level state of its own, so it needs no hook inside the {@link DetectorNode}.
 * <p>
 * Pure like the node protocol: no clock, thread or random; allocation-free once its sets have grown. Not thread safe:
 * the thread that drives the node drives the relay.
 */
public final class ProcessNoticeRelay
{
    private final DetectorNode node;
    private final int rank;
    private final int clusterSize;
    private final JobLayout layout;
    private final BroadcastForwarder forwarder;
    private final BroadcastForwarder.Hop<ProcessNotice> sendNotice;
    private final ProcessListener listener;
    private final BroadcastIdSet seen;
    private final RankArray deadProcesses;
    private final RankArray localDead;
    private final ReusableProcessNotice ownNotice = new ReusableProcessNotice();
    private long sequence;

    private long noticesOriginated;
    private long noticesReceived;
    private long noticesForwarded;
    private long noticesDuplicate;
    private long noticesRefused;

    /**
     * @param node           the daemon's node-level protocol: its rank, incarnation, state and dead set.
     * @param layout         the job's process identity, the same on every daemon.
     * @param schedule       the broadcast schedule of the node level.
     * @param dedupCapacity  broadcast ids remembered.
     * @param channel        where notices go.
     * @param listener       process-level callbacks.
     */
    public ProcessNoticeRelay(
        final DetectorNode node,
        final JobLayout layout,
        final BroadcastSchedule schedule,
        final int dedupCapacity,
        final ProcessNoticeChannel channel,
        final ProcessListener listener)
    {
        this.node = node;
        this.rank = node.rank();
        this.clusterSize = layout.nodeCount();
        this.layout = layout;
        this.forwarder = new BroadcastForwarder(schedule, rank, clusterSize);
        this.sendNotice = channel::sendProcessNotice;
        this.listener = listener;
        this.seen = new BroadcastIdSet(dedupCapacity);
        final int processes = Math.max(1, layout.processCount());
        this.deadProcesses = new RankArray(Math.min(64, processes), processes);
        this.localDead = new RankArray(Math.max(1, layout.processesOn(rank)), Math.max(1, layout.processesOn(rank)));
    }

    /**
     * The daemon saw one of its own processes die (its exit was reported, or its watchdog expired): record it and
     * start a broadcast. Nothing happens once the node no longer takes part, or if the process was already dead.
     *
     * @param localIndex the process's index on this node.
     * @param nowNs      protocol time.
     * @return true if a broadcast was started.
     */
    public boolean onLocalProcessFailure(final int localIndex, final long nowNs)
    {
        return recordLocalFailure(localIndex, nowNs) && announceLocalFailures();
    }

    /**
     * Record a local process's death without announcing it yet, so that several seen in one duty cycle (a node's
     * processes often die together) go out in one broadcast: call {@link #announceLocalFailures()} after the last.
     *
     * @param localIndex the process's index on this node.
     * @param nowNs      protocol time.
     * @return true if the process was newly recorded dead.
     */
    public boolean recordLocalFailure(final int localIndex, final long nowNs)
    {
        final int process = layout.process(rank, localIndex);
        if (node.state() != NodeState.ACTIVE || !deadProcesses.add(process))
        {
            return false;
        }
        localDead.add(process);
        listener.onProcessFailure(process, nowNs, ProcessListener.PROCESS_FAILED, rank);
        return true;
    }

    /**
     * Start one broadcast carrying every process of this node recorded dead so far.
     *
     * @return true if a broadcast was started (the node takes part and has dead processes to announce).
     */
    public boolean announceLocalFailures()
    {
        if (node.state() != NodeState.ACTIVE || localDead.size() == 0)
        {
            return false;
        }
        final RankSet excluded = node.deadSet();
        ownNotice.set(rank, node.incarnation(), ++sequence, excluded, localDead);
        seen.addIfAbsent(rank, node.incarnation(), sequence);
        noticesOriginated++;
        forwarder.forward(rank, excluded, rank, ownNotice, sendNotice);
        return true;
    }

    /**
     * A PROCESS_FAILURE notice arrived: merge its processes and, on first receipt of its broadcast id, forward it
     * along the schedule computed from its D_msg.
     *
     * @param notice   valid during the call.
     * @param fromRank the daemon that sent this copy.
     * @param nowNs    protocol time.
     */
    public void onNotice(final ProcessNotice notice, final int fromRank, final long nowNs)
    {
        noticesReceived++;
        final int source = notice.sourceRank();
        final RankSet excluded = notice.excludedNodes();
        if (node.state() != NodeState.ACTIVE || !isNode(fromRank) || !isNode(source) || !node.isAlive(fromRank) ||
            excluded.contains(rank) || excluded.contains(source) || !announcesOwnProcesses(notice))
        {
            // not a participant (the node level will settle that), or a sender held dead, or a notice naming
            // processes its source does not host: nothing a correct daemon sends
            noticesRefused++;
            return;
        }
        if (source == rank || !seen.addIfAbsent(source, notice.sourceIncarnation(), notice.sequence()))
        {
            noticesDuplicate++;
            return;
        }

        final RankSet dead = notice.deadProcesses();
        for (int i = 0, size = dead.size(); i < size; i++)
        {
            final int process = dead.rankAt(i);
            if (deadProcesses.add(process) && node.isAlive(source))
            {
                listener.onProcessFailure(process, nowNs, ProcessListener.PROCESS_FAILED, source);
            }
        }

        noticesForwarded += forwarder.forward(source, excluded, fromRank, notice, sendNotice);
    }

    /**
     * The node level learned that {@code deadNode} is dead: so are all its processes. Call from the node's
     * {@code MembershipListener.onFailure}.
     *
     * @param deadNode the dead node rank.
     * @param nowNs    protocol time.
     * @param reporter who detected or announced it.
     */
    public void onNodeFailure(final int deadNode, final long nowNs, final int reporter)
    {
        if (!isNode(deadNode))
        {
            return;
        }
        final int first = layout.firstProcess(deadNode);
        for (int p = first, end = first + layout.processesOn(deadNode); p < end; p++)
        {
            if (!deadProcesses.contains(p))
            {
                listener.onProcessFailure(p, nowNs, ProcessListener.NODE_FAILED, reporter);
            }
        }
    }

    /**
     * @param process an application rank.
     * @return true if this daemon knows it dead: seen to fail, announced, or on a node it holds dead.
     */
    public boolean isDead(final int process)
    {
        return deadProcesses.contains(process) || !node.isAlive(layout.nodeOf(process));
    }

    /**
     * @return the processes known to have failed on their own (not counting those of dead nodes), live view.
     */
    public RankSet deadProcesses()
    {
        return deadProcesses;
    }

    /**
     * @return the job layout.
     */
    public JobLayout layout()
    {
        return layout;
    }

    /**
     * @return process broadcasts this daemon started.
     */
    public long noticesOriginated()
    {
        return noticesOriginated;
    }

    /**
     * @return PROCESS_FAILURE copies received from other daemons, whatever became of them.
     */
    public long noticesReceived()
    {
        return noticesReceived;
    }

    /**
     * @return process notice copies forwarded.
     */
    public long noticesForwarded()
    {
        return noticesForwarded;
    }

    /**
     * @return copies of broadcasts already forwarded.
     */
    public long noticesDuplicate()
    {
        return noticesDuplicate;
    }

    /**
     * @return copies dropped: from a daemon held dead, excluding this node or its source, naming foreign processes.
     */
    public long noticesRefused()
    {
        return noticesRefused;
    }

    private boolean announcesOwnProcesses(final ProcessNotice notice)
    {
        final RankSet dead = notice.deadProcesses();
        final int size = dead.size();
        if (size < 1)
        {
            return false;
        }
        final int first = layout.firstProcess(notice.sourceRank());
        final int end = first + layout.processesOn(notice.sourceRank());
        return dead.rankAt(0) >= first && dead.rankAt(size - 1) < end;
    }

    private boolean isNode(final int r)
    {
        return r >= 0 && r < clusterSize;
    }
}
