package io.ringwatch.transport.rdma;

import io.ringwatch.core.slot.HeartbeatSlotLayout;

/**
 * Where an emitter must RDMA WRITE its heartbeats: the observer's registered slot, as carried in
 * NEW_OBSERVER ({@code rdmaAddress}, {@code rdmaRkey}, {@code rdmaLength}).
 *
 * @param address virtual address of the slot in the observer's process.
 * @param rkey    remote key of the memory region covering it.
 * @param length  registered length; at least {@link HeartbeatSlotLayout#PAYLOAD_LENGTH}.
 */
public record RemoteSlot(long address, int rkey, int length)
{
    /**
     * @throws IllegalArgumentException with {@link #invalidReason(long, int)}'s message.
     */
    public RemoteSlot
    {
        final String reason = invalidReason(address, length);
        if (reason != null)
        {
            throw new IllegalArgumentException(reason);
        }
    }

    /**
     * Validate fields received from the wire without throwing, so a decoder can count and drop.
     *
     * @param address claimed slot address.
     * @param length  claimed registered length.
     * @return {@code null} if acceptable, else why not.
     */
    public static String invalidReason(final long address, final int length)
    {
        if (address == 0L)
        {
            return "RDMA slot address is 0 (observer sent no RDMA slot)";
        }
        if ((address & (HeartbeatSlotLayout.SLOT_ALIGNMENT - 1)) != 0)
        {
            return "RDMA slot address 0x" + Long.toHexString(address) + " is not " +
                HeartbeatSlotLayout.SLOT_ALIGNMENT + "-byte aligned";
        }
        if (length < HeartbeatSlotLayout.PAYLOAD_LENGTH)
        {
            return "RDMA slot length " + length + " < payload " + HeartbeatSlotLayout.PAYLOAD_LENGTH;
        }
        return null;
    }

    public String toString()
    {
        return "RemoteSlot{address=0x" + Long.toHexString(address) + ", rkey=0x" + Integer.toHexString(rkey) +
            ", length=" + length + '}';
    }
}
