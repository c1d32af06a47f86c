package io.ringwatch.core.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The digest every frame carries of what all nodes of a cluster must agree on: cluster id, number of ranks N,
 * heartbeat period η, suspicion timeout δ and protocol version. A node started from a different cluster file, or
 * with η or δ overridden, disagrees, and its frames are refused with
 * {@link RejectReason#CONFIG_MISMATCH} instead of quietly skewing the failure detector (an observer with a shorter δ
 * than its emitter's η suspects it on every beat).
 * <p>
 * CRC32C of the fields in a fixed little-endian layout: it catches mistakes, not attackers (the MAC does that).
 * Computed once at start.
 */
public final class ConfigDigest
{
    private static final int LAYOUT_LENGTH = 4 + 4 + 4 + 8 + 8;

    private ConfigDigest()
    {
    }

    /**
     * @param clusterId          cluster id.
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @return the digest for frames of the current {@link FrameHeaderFlyweight#VERSION}.
     */
    public static int of(
        final int clusterId, final int clusterSize, final long heartbeatPeriodNs, final long suspicionTimeoutNs)
    {
        return of(FrameHeaderFlyweight.VERSION, clusterId, clusterSize, heartbeatPeriodNs, suspicionTimeoutNs);
    }

    /**
     * @param version            protocol version.
     * @param clusterId          cluster id.
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @return the digest.
     */
    public static int of(
        final int version,
        final int clusterId,
        final int clusterSize,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs)
    {
        final ByteBuffer fields = ByteBuffer.allocate(LAYOUT_LENGTH).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(version)
            .putInt(clusterId)
            .putInt(clusterSize)
            .putLong(heartbeatPeriodNs)
            .putLong(suspicionTimeoutNs)
            .flip();
        final CRC32C crc = new CRC32C();
        crc.update(fields);
        return (int)crc.getValue();
    }

    /**
     * @param clusterId          cluster id.
     * @param clusterSize        N.
     * @param heartbeatPeriodNs  η.
     * @param suspicionTimeoutNs δ.
     * @return the inputs and their digest, for a log line that lets an operator see which setting differs.
     */
    public static String describe(
        final int clusterId, final int clusterSize, final long heartbeatPeriodNs, final long suspicionTimeoutNs)
    {
        return String.format("config digest %08x (version %d, cluster id %d, N %d, eta %dns, delta %dns)",
            of(clusterId, clusterSize, heartbeatPeriodNs, suspicionTimeoutNs), FrameHeaderFlyweight.VERSION,
            clusterId, clusterSize, heartbeatPeriodNs, suspicionTimeoutNs);
    }
}
