package io.ringwatch.core.codec;

import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.config.BootSeeds;
import io.ringwatch.core.config.PartitionPolicy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The digest every frame carries of what all nodes of a cluster must agree on: cluster id, number of ranks N,
 * heartbeat period η, suspicion timeout δ, broadcast schedule, partition policy, protocol version, the seeds (ranks
 * that boot as members; the default count digests as before) and, on daemons with a process level, the job layout
 * (daemons with different jobs name different processes by one rank; two schedules reach different participants,
 * so nodes that disagree on it lose notices without a word; a node that would go on as a minority beside nodes that
 * stop as one is a split brain). A node started from a different cluster file, or
 * with η or δ overridden, disagrees, and its frames are refused with
 * {@link RejectReason#CONFIG_MISMATCH} instead of quietly skewing the failure detector (an observer with a shorter δ
 * than its emitter's η suspects it on every beat).
 * <p>
 * CRC32C of the fields in a fixed little-endian layout: it catches mistakes, not attackers (the MAC does that).
 * Computed once at start.
 */
public final class ConfigDigest
{
    private static final int LAYOUT_LENGTH = 4 + 4 + 4 + 8 + 8 + 4 + 4;

    private ConfigDigest()
    {
    }

    /**
     * @param clusterId          cluster id.
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @return the digest for frames of the current {@link FrameHeaderFlyweight#VERSION}, double-hypercube broadcast,
     * majority partition policy.
     */
    public static int of(
        final int clusterId, final int clusterSize, final long heartbeatPeriodNs, final long suspicionTimeoutNs)
    {
        return of(clusterId, clusterSize, heartbeatPeriodNs, suspicionTimeoutNs, BroadcastKind.DOUBLE_HYPERCUBE);
    }

    /**
     * @param clusterId          cluster id.
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @param broadcast          the broadcast schedule.
     * @return the digest for frames of the current {@link FrameHeaderFlyweight#VERSION}, majority partition policy.
     */
    public static int of(
        final int clusterId,
        final int clusterSize,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs,
        final BroadcastKind broadcast)
    {
        return of(clusterId, clusterSize, heartbeatPeriodNs, suspicionTimeoutNs, broadcast, PartitionPolicy.MAJORITY);
    }

    /**
     * @param clusterId          cluster id.
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @param broadcast          the broadcast schedule.
     * @param policy             the partition policy.
     * @return the digest for frames of the current {@link FrameHeaderFlyweight#VERSION}.
     */
    public static int of(
        final int clusterId,
        final int clusterSize,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs,
        final BroadcastKind broadcast,
        final PartitionPolicy policy)
    {
        return of(FrameHeaderFlyweight.VERSION, clusterId, clusterSize, heartbeatPeriodNs, suspicionTimeoutNs,
            broadcast, policy);
    }

    /**
     * @param version            protocol version.
     * @param clusterId          cluster id.
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @param broadcast          the broadcast schedule.
     * @param policy             the partition policy.
     * @return the digest.
     */
    public static int of(
        final int version,
        final int clusterId,
        final int clusterSize,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs,
        final BroadcastKind broadcast,
        final PartitionPolicy policy)
    {
        return of(version, clusterId, clusterSize, heartbeatPeriodNs, suspicionTimeoutNs, broadcast, policy, 0,
            BootSeeds.defaultFor(clusterSize));
    }

    /**
     * @param version            protocol version.
     * @param clusterId          cluster id.
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @param broadcast          the broadcast schedule.
     * @param policy             the partition policy.
     * @param jobDigest          {@link io.ringwatch.core.process.JobLayout#digest()} of the job, 0 for a node
     *                           without a process level (which then digests exactly as before jobs existed).
     * @param seeds              ranks that boot as members (start = join);
     *                           {@link BootSeeds#defaultFor(int)} digests exactly as before seeds existed.
     * @return the digest.
     */
    public static int of(
        final int version,
        final int clusterId,
        final int clusterSize,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs,
        final BroadcastKind broadcast,
        final PartitionPolicy policy,
        final int jobDigest,
        final int seeds)
    {
        final ByteBuffer fields = ByteBuffer.allocate(LAYOUT_LENGTH + 8).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(version)
            .putInt(clusterId)
            .putInt(clusterSize)
            .putLong(heartbeatPeriodNs)
            .putLong(suspicionTimeoutNs)
            .putInt(broadcast.ordinal())
            .putInt(policy.ordinal());
        if (jobDigest != 0)
        {
            // two daemons with different jobs name different processes by the same rank
            fields.putInt(jobDigest);
        }
        if (seeds != BootSeeds.defaultFor(clusterSize))
        {
            // nodes that disagree on the seeds disagree on who is a member at boot and who must join
            fields.putInt(seeds);
        }
        fields.flip();
        final CRC32C crc = new CRC32C();
        crc.update(fields);
        return (int)crc.getValue();
    }

    /**
     * @param clusterId          cluster id.
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @param broadcast          the broadcast schedule.
     * @param policy             the partition policy.
     * @return the inputs and their digest, for a log line that lets an operator see which setting differs.
     */
    public static String describe(
        final int clusterId,
        final int clusterSize,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs,
        final BroadcastKind broadcast,
        final PartitionPolicy policy)
    {
        return describe(clusterId, clusterSize, heartbeatPeriodNs, suspicionTimeoutNs, broadcast, policy, 0,
            BootSeeds.defaultFor(clusterSize));
    }

    /**
     * @param clusterId          cluster id.
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @param broadcast          the broadcast schedule.
     * @param policy             the partition policy.
     * @param jobDigest          the job's digest, 0 for none.
     * @param seeds              ranks that boot as members.
     * @return the inputs and their digest, for a log line that lets an operator see which setting differs.
     */
    public static String describe(
        final int clusterId,
        final int clusterSize,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs,
        final BroadcastKind broadcast,
        final PartitionPolicy policy,
        final int jobDigest,
        final int seeds)
    {
        return String.format("config digest %08x (version %d, cluster id %d, N %d, heartbeat period %dns, " +
            "suspicion timeout %dns, broadcast %s, partition policy %s, job %s, seeds %d)",
            of(FrameHeaderFlyweight.VERSION, clusterId, clusterSize, heartbeatPeriodNs, suspicionTimeoutNs, broadcast,
            policy, jobDigest, seeds),
            FrameHeaderFlyweight.VERSION, clusterId, clusterSize, heartbeatPeriodNs, suspicionTimeoutNs, broadcast,
            policy, jobDigest == 0 ? "none" : String.format("%08x", jobDigest), seeds);
    }
}
