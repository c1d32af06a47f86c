package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.HelloFlyweight;
import io.ringwatch.core.config.Durations;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.protocol.BootHearing;
import io.ringwatch.core.protocol.BootPlan;
import io.ringwatch.transport.aeron.NodeCounter;
import io.ringwatch.transport.aeron.auth.KeyFile;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Names a wrong key or a configuration that differs, on both sides, and tells a seed without a record of an earlier
 * life whether its cluster is already up. A node whose frames fail every peer's MAC is otherwise silent: its frames
 * are counted as {@code BAD_MAC} (or not at all, on a control stream nobody reads) without a word.
 * <p>
 * A node sends a {@link HelloFlyweight} once a second to a few peers (the seeds and its ring predecessor) over a
 * {@link HelloWire} whose address does not depend on the key: the heartbeat port over UDP, a stream per rank of the
 * host's driver over IPC. Over UDP it does so until it has heard its cluster (accepted a heartbeat); over IPC, where
 * heartbeats are shared-memory stores that no key guards, until its startup grace is over. A receiver compares the
 * hello with its own settings; if the key fingerprint or a setting differs it logs which, naming the field and both
 * values, at most once per claimed sender per {@link #REPORT_INTERVAL_NS}, counts it, and answers with its own hello
 * (flagged as a reply, never answered) at the same rate. A hello flagged {@link HelloFlyweight#FLAG_ASK} is answered
 * even if nothing differs, at most twice a second per sender, with {@link HelloFlyweight#FLAG_ESTABLISHED} if this
 * node is a member past its startup grace. So both sides say why, the node that was never heard learns it too, and
 * the asker counts who agrees, who differs and who is up; {@code BootHearing} judges those counts: whether a seed
 * joins instead, and over IPC whether this node is the odd one out, which its owner stops with a code a supervisor
 * does not restart. Over UDP only a node that heard nobody and stopped as ISOLATED takes that code.
 * <p>
 * Hellos are not authenticated (a node with another key cannot check ours): a forged one can add a log line and a
 * count, rate-limited per rank, change the exit code of a node that heard nobody and was stopping anyway, and make a
 * seed at its first boot join instead (it is admitted like a restarted one). Over IPC only processes that may use the
 * host's driver can send one, as only they can write the heartbeat slots. Answers go only to cluster members, are no
 * larger than what they answer, and are rate-limited per rank: no reflection and no amplification. Its own thread
 * does the work, so the agent only hands over a hello that arrived on the socket it reads (UDP: the ring
 * predecessor's), without allocating; the wire is read at most {@value #DRAIN_LIMIT} hellos per poll, every
 * {@value #POLL_INTERVAL_MS} ms until the node has heard its cluster and every {@value #HEARD_POLL_INTERVAL_MS} ms
 * after (over UDP the kernel drops the rest, as before).
 */
public final class HelloExchange implements AutoCloseable
{
    /** Least time between two log lines, or two answers, for one claimed sender. */
    public static final long REPORT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(10);

    private static final long SEND_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long ANSWER_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long POLL_INTERVAL_MS = 100;
    private static final long LISTEN_POLL_NS = TimeUnit.MILLISECONDS.toNanos(10);
    // once the cluster is heard, only other nodes' hellos are left to read: a wake-up a second keeps the thread out
    // of the noise budget of the application's cores
    private static final long HEARD_POLL_INTERVAL_MS = 1000;
    private static final int DRAIN_LIMIT = 16;
    private static final System.Logger LOG = System.getLogger("io.ringwatch.node");

    /**
     * The settings a hello carries.
     */
    public record Settings(int clusterId, int rank, int clusterSize, long heartbeatPeriodNs, long suspicionTimeoutNs,
        int seeds, int jobDigest, BroadcastKind broadcast, PartitionPolicy partitionPolicy)
    {
    }

    private final Settings settings;
    private final HelloWire wire;
    private final boolean ipc;
    private final int[] targets;
    private final boolean[] isTarget;
    private final NodeCounters counters;
    private final long[] lastReportNs;
    private final long[] lastAnswerNs;
    // per target, set once by this thread: it answered with our key and settings, answered naming another, is up
    private final boolean[] agreed;
    private final boolean[] differed;
    private final boolean[] up;
    private final HelloFlyweight hello = new HelloFlyweight();
    private final UnsafeBuffer sendBuffer =
        new UnsafeBuffer(BufferUtil.allocateDirectAligned(HelloFlyweight.LENGTH, 64));
    private final HelloWire.Sink sink = this::onHello;
    private final UnsafeBuffer mailbox = new UnsafeBuffer(new byte[HelloFlyweight.LENGTH]);
    private final AtomicInteger mailboxFull = new AtomicInteger();
    private final Thread thread;
    private volatile long[] fingerprints;
    private volatile boolean running = true;
    private volatile String keyMismatch;
    private volatile String configMismatch;
    // written by this thread, published by the agent: this thread never touches the counters, which live in the
    // Aeron client's mapping of the driver's CnC file and vanish with it if the driver goes away (a node held at its
    // start barrier when its driver died crashed the JVM here, reading an unmapped counter)
    private volatile long keyMismatches;
    private volatile long configMismatches;
    private volatile boolean clusterHeard;
    private volatile boolean asking;
    private volatile boolean member;
    private volatile boolean graceOver;
    private volatile int agreeing;
    private volatile int differing;
    private volatile int established;
    private volatile int establishedBy = -1;
    private long nextSendNs;
    private long receivedAtNs;

    /**
     * @param settings     this node's.
     * @param fingerprints this node's keys' {@link KeyFile#fingerprintValue}, primary first; empty without keys.
     * @param wire         where hellos travel; closed with this exchange.
     * @param ipc          the wire is IPC: hellos of another cluster id are another cluster's on a shared driver,
     *                     hellos ask until the startup grace is over, and the odd one out is decided from them.
     * @param counters     where the agent publishes the mismatches counted here ({@link #publish}).
     */
    public HelloExchange(
        final Settings settings,
        final long[] fingerprints,
        final HelloWire wire,
        final boolean ipc,
        final NodeCounters counters)
    {
        this.settings = settings;
        this.fingerprints = fingerprints.clone();
        this.wire = wire;
        this.ipc = ipc;
        this.asking = ipc;
        this.counters = counters;
        final int n = settings.clusterSize();
        this.targets = targets(settings.rank(), n, settings.seeds());
        this.isTarget = new boolean[n];
        for (final int target : targets)
        {
            isTarget[target] = true;
            wire.prepare(target);
        }
        this.lastReportNs = new long[n];
        this.lastAnswerNs = new long[n];
        this.agreed = new boolean[n];
        this.differed = new boolean[n];
        this.up = new boolean[n];
        thread = new Thread(this::run, "ringwatch-hello-" + settings.rank());
        thread.setDaemon(true);
    }

    /**
     * The peers a node says hello to: the seeds and its ring predecessor, not itself. (Its successor's heartbeat
     * socket is connected to this node: a hello there reaches that node's agent, which hands it over by
     * {@link #offer}.)
     */
    static int[] targets(final int rank, final int n, final int seeds)
    {
        final List<Integer> chosen = new ArrayList<>();
        for (int r = 0; r < Math.min(seeds, n); r++)
        {
            chosen.add(r);
        }
        final int predecessor = Math.floorMod(rank - 1, n);
        if (!chosen.contains(predecessor))
        {
            chosen.add(predecessor);
        }
        chosen.removeIf(r -> r == rank);
        return chosen.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Start the thread.
     *
     * @return this.
     */
    public HelloExchange start()
    {
        nextSendNs = System.nanoTime();
        wire.started();
        thread.start();
        return this;
    }

    /**
     * On the agent thread: a hello that arrived on the emitter's socket. Copied if the one-slot mailbox is free,
     * dropped otherwise; never allocates.
     *
     * @param buffer holds it.
     * @param offset where it starts.
     */
    public void offer(final DirectBuffer buffer, final int offset)
    {
        if (mailboxFull.get() == 0)
        {
            mailbox.putBytes(0, buffer, offset, HelloFlyweight.LENGTH);
            mailboxFull.lazySet(1);
        }
    }

    /**
     * @param fingerprints the keyring's fingerprints after a rotation, primary first.
     */
    public void rekey(final long[] fingerprints)
    {
        this.fingerprints = fingerprints.clone();
    }

    /**
     * @return the last key mismatch a hello told of, or null.
     */
    public String keyMismatch()
    {
        return keyMismatch;
    }

    /**
     * @return the last configuration mismatch a hello told of, or null.
     */
    public String configMismatch()
    {
        return configMismatch;
    }

    /**
     * The agent saw its emitter's slot move: the cluster hears this node, so hellos stop unless it still asks. Called
     * on the agent's thread.
     */
    public void clusterHeard()
    {
        clusterHeard = true;
    }

    /**
     * The node's startup grace is over (agent's thread): it stops asking, and over IPC {@link #oddOneOut} may decide.
     */
    public void graceOver()
    {
        asking = false;
        graceOver = true;
    }

    /**
     * @param member the node is a member past its startup grace, as its answers say (agent's thread, on a change).
     */
    public void member(final boolean member)
    {
        this.member = member;
    }

    /**
     * @return the first peer that answered as an established member, or -1.
     */
    public int establishedBy()
    {
        return establishedBy;
    }

    /**
     * Over IPC, once the startup grace is over: the mismatch that makes this node the odd one out of its cluster
     * ({@link BootHearing#oddOneOut}), which a supervisor cannot heal by restarting it.
     *
     * @return the key mismatch or, without one, the configuration mismatch; null if this node is not the odd one.
     */
    public String oddOneOut()
    {
        if (!ipc || !graceOver || !BootHearing.oddOneOut(targets.length, agreeing, differing))
        {
            return null;
        }
        return keyMismatch != null ? keyMismatch : configMismatch;
    }

    /**
     * Move hellos between the wire and its medium ({@link HelloWire#pump}), on the thread that runs the node's Aeron
     * client: the agent's, or the launch's while it holds the node before its start.
     *
     * @return hellos moved.
     */
    public int pump()
    {
        return wire.pump();
    }

    /**
     * Publish the mismatches counted so far; on the agent's thread, with the node's other counters.
     */
    public void publish()
    {
        counters.set(NodeCounter.HELLO_KEY_MISMATCHES, keyMismatches);
        counters.set(NodeCounter.HELLO_CONFIG_MISMATCHES, configMismatches);
    }

    /**
     * Before {@link #start}, on the launching thread: what a seed without a record of an earlier life hears from its
     * peers, until {@link BootHearing#afterListening} decides or its window is over. The caller serves its Aeron
     * client between rounds.
     *
     * @param planned  the rank's plan without hearing anyone.
     * @param listenNs the window ({@link BootHearing#listenNs}).
     * @param service  run between rounds (the Aeron client's conductor, which IPC hellos need).
     * @return the plan: {@code planned}, or {@link BootPlan#JOIN} if a live cluster
     * answered ({@link #establishedBy()} then names who).
     */
    public BootPlan listen(final BootPlan planned, final long listenNs, final Runnable service)
    {
        final long untilNs = System.nanoTime() + listenNs;
        nextSendNs = System.nanoTime();
        asking = true;
        while (true)
        {
            final long nowNs = System.nanoTime();
            service.run();
            wire.pump();
            cycle(nowNs);
            final BootPlan plan = BootHearing.afterListening(
                planned, targets.length, agreeing + differing, established, nowNs - untilNs >= 0);
            if (plan != null)
            {
                // over UDP a node asks while it decides how to boot; over IPC until its grace is over
                asking = ipc;
                return plan;
            }
            LockSupport.parkNanos(LISTEN_POLL_NS);
        }
    }

    private void run()
    {
        while (running)
        {
            final boolean quiet = cycle(System.nanoTime());
            // parked, not slept: close() unparks it, and an interrupt would close the heartbeat socket
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(quiet ? HEARD_POLL_INTERVAL_MS : POLL_INTERVAL_MS));
        }
    }

    /**
     * One round: take what arrived, say hello when due.
     *
     * @return true once there is nothing left to say (the cluster heard, not asking).
     */
    private boolean cycle(final long nowNs)
    {
        receivedAtNs = nowNs;
        if (mailboxFull.get() == 1)
        {
            onHello(mailbox, 0);
            mailboxFull.set(0);
        }
        wire.receive(sink, DRAIN_LIMIT);
        final boolean ask = asking;
        final boolean quiet = clusterHeard && !ask;
        if (!quiet && nowNs - nextSendNs >= 0)
        {
            nextSendNs = nowNs + SEND_INTERVAL_NS;
            for (final int target : targets)
            {
                send(target, ask ? HelloFlyweight.FLAG_ASK : 0);
            }
        }
        return quiet;
    }

    void onHello(final UnsafeBuffer buffer, final int offset)
    {
        final long nowNs = receivedAtNs;
        hello.wrap(buffer, offset);
        final int sender = hello.senderRank();
        if (sender < 0 || sender >= settings.clusterSize() || sender == settings.rank() ||
            ipc && hello.clusterId() != settings.clusterId())
        {
            return;
        }
        final String keyDiff = keyDifference(hello);
        final String configDiff = keyDiff != null ? null : configDifference(hello);
        final boolean differs = keyDiff != null || configDiff != null;
        final int flags = hello.flags();
        final boolean reply = (flags & HelloFlyweight.FLAG_REPLY) != 0;
        if (reply && isTarget[sender])
        {
            onAnswer(sender, !differs, (flags & HelloFlyweight.FLAG_ESTABLISHED) != 0);
        }
        final boolean ask = !reply && (flags & HelloFlyweight.FLAG_ASK) != 0;
        if (differs && report(sender, keyDiff, configDiff, nowNs) && !reply && !ask)
        {
            send(sender, HelloFlyweight.FLAG_REPLY);
        }
        if (ask && (lastAnswerNs[sender] == 0 || nowNs - lastAnswerNs[sender] >= ANSWER_INTERVAL_NS))
        {
            // an asker counts the answers, so it gets one whether or not this node has just logged the difference
            lastAnswerNs[sender] = nowNs;
            send(sender, HelloFlyweight.FLAG_REPLY | (!differs && member ? HelloFlyweight.FLAG_ESTABLISHED : 0));
        }
    }

    /**
     * Count a difference and log it, at most once per claimed sender per {@link #REPORT_INTERVAL_NS}.
     *
     * @return true if logged now (a hello that asked nothing is answered at that rate).
     */
    private boolean report(final int sender, final String keyDiff, final String configDiff, final long nowNs)
    {
        if (keyDiff != null)
        {
            keyMismatches++;
        }
        else
        {
            configMismatches++;
        }
        if (lastReportNs[sender] != 0 && nowNs - lastReportNs[sender] < REPORT_INTERVAL_NS)
        {
            return false;
        }
        lastReportNs[sender] = nowNs;
        final String what = "rank " + sender + " (" + wire.describe(sender) + ", by its hello) " +
            (keyDiff != null ? keyDiff : configDiff);
        if (keyDiff != null)
        {
            keyMismatch = what;
            LOG.log(Level.WARNING, "KEY MISMATCH: " + what + ": its frames fail authentication here and ours " +
                "there; give every node the same key file (ringwatch.jar keygen --out FILE, then node --key-file " +
                "FILE)");
        }
        else
        {
            configMismatch = what;
            LOG.log(Level.WARNING, "CONFIG MISMATCH: " + what + ": frames between the two are refused; run every " +
                "node from the same cluster file and flags");
        }
        return true;
    }

    private void onAnswer(final int sender, final boolean agrees, final boolean isUp)
    {
        if (agrees && !agreed[sender])
        {
            agreed[sender] = true;
            agreeing++;
        }
        else if (!agrees && !differed[sender] && !agreed[sender])
        {
            differed[sender] = true;
            differing++;
        }
        if (agrees && isUp && !up[sender])
        {
            up[sender] = true;
            if (establishedBy < 0)
            {
                establishedBy = sender;
            }
            established++;
        }
    }

    private String keyDifference(final HelloFlyweight theirs)
    {
        final long[] ours = fingerprints;
        final long fingerprint = theirs.keyFingerprint();
        if (fingerprint == 0 && ours.length == 0)
        {
            return null;
        }
        for (final long f : ours)
        {
            if (f == fingerprint)
            {
                return null;
            }
        }
        final StringBuilder keys = new StringBuilder();
        for (final long f : ours)
        {
            keys.append(keys.length() == 0 ? "" : ", ").append(KeyFile.fingerprint(f));
        }
        return fingerprint == 0 ? "runs without authentication (--no-auth), this node with key " + keys :
            ours.length == 0 ? "signs with key " + KeyFile.fingerprint(fingerprint) +
            ", this node runs without authentication (--no-auth)" :
            "signs with key fingerprint " + KeyFile.fingerprint(fingerprint) + ", this node's keys are " + keys;
    }

    private String configDifference(final HelloFlyweight theirs)
    {
        if (theirs.clusterId() != settings.clusterId())
        {
            return "is in cluster-id " + theirs.clusterId() + ", this node in " + settings.clusterId();
        }
        if (theirs.frameVersion() != FrameHeaderFlyweight.VERSION)
        {
            return "speaks frame version " + theirs.frameVersion() + ", this node " + FrameHeaderFlyweight.VERSION +
                " (a different ringwatch version)";
        }
        if (theirs.clusterSize() != settings.clusterSize())
        {
            return "has " + theirs.clusterSize() + " members in its cluster file, this node " +
                settings.clusterSize();
        }
        if (theirs.heartbeatPeriodNs() != settings.heartbeatPeriodNs())
        {
            return "has heartbeat-period " + Durations.format(theirs.heartbeatPeriodNs()) + ", this node " +
                Durations.format(settings.heartbeatPeriodNs());
        }
        if (theirs.suspicionTimeoutNs() != settings.suspicionTimeoutNs())
        {
            return "has suspicion-timeout " + Durations.format(theirs.suspicionTimeoutNs()) + ", this node " +
                Durations.format(settings.suspicionTimeoutNs());
        }
        if (theirs.broadcast() != settings.broadcast().ordinal())
        {
            return "has broadcast " + name(BroadcastKind.values(), theirs.broadcast()) + ", this node " +
                settings.broadcast();
        }
        if (theirs.partitionPolicy() != settings.partitionPolicy().ordinal())
        {
            return "has partition policy " + name(PartitionPolicy.values(), theirs.partitionPolicy()) +
                ", this node " + settings.partitionPolicy();
        }
        if (theirs.seeds() != settings.seeds())
        {
            return "has seeds " + theirs.seeds() + ", this node " + settings.seeds();
        }
        if (theirs.jobDigest() != settings.jobDigest())
        {
            return String.format("runs job %08x (--procs-per-node/--job), this node %08x", theirs.jobDigest(),
                settings.jobDigest());
        }
        return null;
    }

    private static String name(final Enum<?>[] values, final int ordinal)
    {
        return ordinal >= 0 && ordinal < values.length ? values[ordinal].toString() : "unknown(" + ordinal + ")";
    }

    private void send(final int rank, final int flags)
    {
        final long[] keys = fingerprints;
        hello.wrap(sendBuffer, 0).encode(settings.clusterId(), settings.rank(), flags, settings.clusterSize(),
            keys.length == 0 ? 0 : keys[0], settings.heartbeatPeriodNs(), settings.suspicionTimeoutNs(),
            FrameHeaderFlyweight.VERSION, settings.seeds(), settings.jobDigest(), settings.broadcast().ordinal(),
            settings.partitionPolicy().ordinal());
        wire.send(rank, sendBuffer);
    }

    /**
     * Stop the thread.
     */
    public void close()
    {
        // no interrupt: one during a receive would close the heartbeat port's socket under the agent
        running = false;
        LockSupport.unpark(thread);
        try
        {
            thread.join(1000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        wire.close();
    }
}
