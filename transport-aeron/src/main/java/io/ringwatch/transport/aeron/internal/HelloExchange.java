package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.HelloFlyweight;
import io.ringwatch.core.config.Durations;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.transport.aeron.NodeCounter;
import io.ringwatch.transport.aeron.auth.KeyFile;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Names a wrong key or a configuration that differs, on both sides, over UDP. A node whose frames fail every peer's
 * MAC is otherwise silent: its control stream id derives from its key, so nobody even counts its control frames,
 * and its heartbeats are counted as {@code BAD_MAC} by one observer without a word.
 * <p>
 * Until a node has heard its cluster (accepted a heartbeat), it sends a {@link HelloFlyweight} once a second to the
 * heartbeat port of a few peers (the seeds and its ring predecessor): a port whose address does not depend on the
 * key. A receiver compares the hello with its own settings; if the key fingerprint or a setting differs it logs
 * which, naming the field and both values, at most once per claimed sender per {@link #REPORT_INTERVAL_NS}, counts
 * it, and answers with its own hello (flagged as a reply, never answered) to the address the cluster file gives that
 * rank, at the same rate. So both sides say why, and the node that was never heard learns it too: when it stops as
 * ISOLATED, its owner can exit with a code a supervisor does not restart.
 * <p>
 * Hellos are not authenticated (a node with another key cannot check ours): a forged one can only add a log line and
 * a count, rate-limited per rank, and change the exit code of a node that heard nobody and was stopping anyway.
 * Answers go only to cluster members, are no larger than what they answer, and are rate-limited per rank: no
 * reflection and no amplification. Its own thread does the work, so the agent only hands over a hello that arrived
 * on the socket it reads (the ring predecessor's), without allocating; datagrams from anyone else land on the
 * heartbeat port's other socket, which this thread reads at most {@value #DRAIN_LIMIT} of per poll, every
 * {@value #POLL_INTERVAL_MS} ms until the node has heard its cluster and every {@value #HEARD_POLL_INTERVAL_MS} ms
 * after (the kernel drops the rest, as before).
 */
public final class HelloExchange implements AutoCloseable
{
    /** Least time between two log lines, or two answers, for one claimed sender. */
    public static final long REPORT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(10);

    private static final long SEND_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long POLL_INTERVAL_MS = 100;
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
    private final DatagramChannel socket;
    private final InetSocketAddress[] peers;
    private final int[] targets;
    private final NodeCounters counters;
    private final long[] lastReportNs;
    private final HelloFlyweight hello = new HelloFlyweight();
    private final ByteBuffer sendBytes = BufferUtil.allocateDirectAligned(HelloFlyweight.LENGTH, 64);
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(sendBytes);
    private final ByteBuffer receiveBytes = BufferUtil.allocateDirectAligned(HelloFlyweight.LENGTH + 1, 64);
    private final UnsafeBuffer receiveBuffer = new UnsafeBuffer(receiveBytes);
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
    private long nextSendNs;

    /**
     * @param settings     this node's.
     * @param fingerprints this node's keys' {@link KeyFile#fingerprintValue}, primary first; empty without keys.
     * @param socket       the heartbeat port's socket that nobody else reads (it takes every datagram but the
     *                     watched emitter's) and that sends.
     * @param peers        every member's heartbeat address, by rank.
     * @param counters     where the agent publishes the mismatches counted here ({@link #publish}).
     */
    public HelloExchange(
        final Settings settings,
        final long[] fingerprints,
        final DatagramChannel socket,
        final InetSocketAddress[] peers,
        final NodeCounters counters)
    {
        this.settings = settings;
        this.fingerprints = fingerprints.clone();
        this.socket = socket;
        this.peers = peers;
        this.counters = counters;
        this.targets = targets(settings.rank(), settings.clusterSize(), settings.seeds());
        this.lastReportNs = new long[settings.clusterSize()];
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
     * The agent saw its emitter's slot move: the cluster hears this node, so hellos stop. Called on the agent's thread.
     */
    public void clusterHeard()
    {
        clusterHeard = true;
    }

    /**
     * Publish the mismatches counted so far; on the agent's thread, with the node's other counters.
     */
    public void publish()
    {
        counters.set(NodeCounter.HELLO_KEY_MISMATCHES, keyMismatches);
        counters.set(NodeCounter.HELLO_CONFIG_MISMATCHES, configMismatches);
    }

    private void run()
    {
        nextSendNs = System.nanoTime();
        while (running)
        {
            final long nowNs = System.nanoTime();
            if (mailboxFull.get() == 1)
            {
                onHello(mailbox, 0, nowNs);
                mailboxFull.set(0);
            }
            drain(nowNs);
            final boolean heard = clusterHeard;
            if (!heard && nowNs - nextSendNs >= 0)
            {
                nextSendNs = nowNs + SEND_INTERVAL_NS;
                for (final int target : targets)
                {
                    send(target, 0);
                }
            }
            // parked, not slept: close() unparks it, and an interrupt would close the heartbeat socket
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(heard ? HEARD_POLL_INTERVAL_MS : POLL_INTERVAL_MS));
        }
    }

    private void drain(final long nowNs)
    {
        for (int i = 0; i < DRAIN_LIMIT; i++)
        {
            receiveBytes.clear();
            try
            {
                if (socket.receive(receiveBytes) == null)
                {
                    return;
                }
            }
            catch (final IOException ex)
            {
                // ICMP unreachable from an earlier send, or the socket closing: nothing to read now
                return;
            }
            if (HelloFlyweight.isHello(receiveBuffer, 0, receiveBytes.position()))
            {
                onHello(receiveBuffer, 0, nowNs);
            }
        }
    }

    void onHello(final UnsafeBuffer buffer, final int offset, final long nowNs)
    {
        hello.wrap(buffer, offset);
        final int sender = hello.senderRank();
        if (sender < 0 || sender >= settings.clusterSize() || sender == settings.rank())
        {
            return;
        }
        final String keyDiff = keyDifference(hello);
        final String configDiff = keyDiff != null ? null : configDifference(hello);
        if (keyDiff == null && configDiff == null)
        {
            return;
        }
        final boolean reply = (hello.flags() & HelloFlyweight.FLAG_REPLY) != 0;
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
            return;
        }
        lastReportNs[sender] = nowNs;
        final String what = "rank " + sender + " (" + peers[sender] + ", by its hello) " +
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
        if (!reply)
        {
            send(sender, HelloFlyweight.FLAG_REPLY);
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
        sendBytes.clear();
        try
        {
            socket.send(sendBytes, peers[rank]);
        }
        catch (final IOException ex)
        {
            // a peer not up yet: the next round tries again
        }
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
    }
}
