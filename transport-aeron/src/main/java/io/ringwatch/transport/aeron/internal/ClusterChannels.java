package io.ringwatch.transport.aeron.internal;

import io.aeron.ChannelUriStringBuilder;
import io.aeron.CommonContext;
import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.codec.FailureNoticeFlyweight;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;
import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.aeron.RingwatchContext;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.auth.KeyFile;
import org.agrona.BitUtil;

import java.util.BitSet;
import java.util.List;

/**
 * Where each rank listens, as Aeron channels and stream ids, and which peers a node talks to often enough that
 * their publications are created up front.
 * <ul>
 *     <li>IPC: control on {@code aeron:ipc?term-length=...}, stream {@code controlStreamId + rank}: one stream per
 *     node on the host's shared driver. Heartbeats do not use Aeron at all (shared slot file).</li>
 *     <li>UDP: control on {@code aeron:udp?endpoint=host:controlPort}, one stream id derived from the cluster key
 *     ({@link ControlStreams}); the endpoint tells nodes apart.
 *     Heartbeats are plain datagrams to {@code host:heartbeatPort}, not an Aeron stream
 *     ({@link io.ringwatch.transport.aeron.internal.slot.DatagramHeartbeats}).</li>
 * </ul>
 */
public final class ClusterChannels
{
    private final RingwatchContext ctx;
    private final int[] udpControlStreams;

    /**
     * @param ctx concluded configuration; over UDP its key file (if authentication is required) is read to derive
     *            the control stream ids ({@link ControlStreams}).
     */
    public ClusterChannels(final RingwatchContext ctx)
    {
        this.ctx = ctx;
        this.udpControlStreams = ctx.transport().controlOverUdp() ? ControlStreams.streamIds(
            ctx.authMode() == AuthMode.REQUIRED ? KeyFile.load(ctx.authKeyFile()) : List.of(),
            ctx.cluster().clusterId()) : null;
    }

    public String controlChannel(final int rank)
    {
        if (ctx.transport() == TransportMode.IPC)
        {
            return "aeron:ipc?term-length=" + controlTermLength(ctx.termLength());
        }
        final ClusterConfig.Member m = ctx.cluster().member(rank);
        return udpChannel(m.host(), m.controlPort(), controlTermLength(ctx.termLength()));
    }

    /**
     * Aeron refuses a message longer than an eighth of the term: control terms are long enough for the largest
     * notice ({@link FailureNoticeFlyweight#MAX_LENGTH}, {@link FailureNoticeFlyweight#MAX_RANGES} runs) whatever
     * the configured term length. Heartbeats are small and keep the configured length.
     *
     * @param termLength the configured term length.
     * @return the term length of the control channels.
     */
    public static int controlTermLength(final int termLength)
    {
        return Math.max(termLength, BitUtil.findNextPositivePowerOfTwo(8 * FailureNoticeFlyweight.MAX_LENGTH));
    }

    /**
     * @param rank a node.
     * @return the stream id frames to {@code rank} are published under: over IPC the configured id plus the rank,
     * over UDP the id derived from the primary key ({@link ControlStreams}).
     */
    public int controlStream(final int rank)
    {
        return udpControlStreams == null ? ctx.controlStreamId() + rank : udpControlStreams[0];
    }

    /**
     * @return over UDP, the ids a node subscribes under, one per key of its keyring (the primary's first); over IPC,
     * null.
     */
    public int[] udpControlStreams()
    {
        return udpControlStreams == null ? null : udpControlStreams.clone();
    }

    public String[] controlChannels()
    {
        final String[] channels = new String[ctx.cluster().size()];
        for (int r = 0; r < channels.length; r++)
        {
            channels[r] = controlChannel(r);
        }
        return channels;
    }

    public int[] controlStreams()
    {
        final int[] streams = new int[ctx.cluster().size()];
        for (int r = 0; r < streams.length; r++)
        {
            streams[r] = controlStream(r);
        }
        return streams;
    }

    /**
     * @param host name, IPv4 literal, or IPv6 literal with or without brackets.
     * @param port UDP port.
     * @return {@code host:port} as an Aeron endpoint: an IPv6 literal goes in brackets, or its colons would be read as
     * the port separator.
     */
    public static String endpoint(final String host, final int port)
    {
        final boolean bareIpv6 = host.indexOf(':') >= 0 && !host.startsWith("[");
        return (bareIpv6 ? "[" + host + "]" : host) + ":" + port;
    }

    private static String udpChannel(final String host, final int port, final int termLength)
    {
        return new ChannelUriStringBuilder()
            .media(CommonContext.UDP_MEDIA)
            .endpoint(endpoint(host, port))
            .termLength(termLength)
            .build();
    }

    /**
     * Peers a node is likely to send control frames to: whoever the schedule has it forward a notice to in the
     * full cluster, for every source (where notices go while few have died), its ⌊log₂ n⌋ + 1 nearest
     * predecessors (NEW_OBSERVER after mending around that many failures) and its two successors (LEAVE, PROBE_ACK).
     *
     * @param schedule the cluster's broadcast schedule.
     * @param rank     this node.
     * @param n        N.
     * @return distinct peer ranks, ascending, excluding {@code rank}.
     */
    public static int[] usualControlPeers(final BroadcastSchedule schedule, final int rank, final int n)
    {
        final BitSet peers = new BitSet(n);
        final RankSet noneExcluded = RankArray.of();
        final int[] targets = new int[schedule.maxFanout(n)];
        for (int source = 0; source < n; source++)
        {
            final int count = schedule.neighbours(rank, source, noneExcluded, n, targets);
            for (int i = 0; i < count; i++)
            {
                peers.set(targets[i]);
            }
        }
        for (int i = 1; i <= nearest(n); i++)
        {
            peers.set(Math.floorMod(rank - i, n));
        }
        // the successor (LEAVE) and the two nearest, which probe this node first when their emitter falls silent
        // (PROBE_ACK)
        peers.set((rank + 1) % n);
        peers.set((rank + 2) % n);
        peers.clear(rank);
        return peers.stream().toArray();
    }

    /**
     * Control peers to connect before joining: every other node in a cluster of at most {@code allUpTo}, where the
     * cost is small, otherwise {@link #usualControlPeers(BroadcastSchedule, int, int)}. Once ranks have died the
     * schedule's targets are offsets along the live ring, not in rank space, so in a small cluster connecting to
     * everyone is what keeps a notice from ever waiting for a publication to be set up.
     *
     * @param schedule the cluster's broadcast schedule.
     * @param rank     this node.
     * @param n        N.
     * @param allUpTo  largest cluster in which every peer is connected up front.
     * @return distinct peer ranks, excluding {@code rank}.
     */
    public static int[] controlPeersToPreCreate(
        final BroadcastSchedule schedule, final int rank, final int n, final int allUpTo)
    {
        if (n > allUpTo)
        {
            return usualControlPeers(schedule, rank, n);
        }
        final int[] peers = new int[n - 1];
        for (int i = 1; i < n; i++)
        {
            peers[i - 1] = (rank + i) % n;
        }
        return peers;
    }

    private static int nearest(final int n)
    {
        return Math.min(n - 1, (31 - Integer.numberOfLeadingZeros(Math.max(1, n))) + 1);
    }
}
