package io.ringwatch.transport.aeron.internal;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Reassembles control frames longer than the MTU, as Aeron's {@code FragmentAssembler} does, with its memory bounded:
 * that one keeps a growing buffer for every session that ever sent a first fragment, for ever, so whoever can open
 * sessions on the control stream (anyone who knows its id) could grow it until memory ran out, and every peer
 * restart left one behind. Here:
 * <ul>
 *     <li>at most {@code maxSessions} messages are in reassembly at once, each in a buffer of
 *     {@code maxMessageLength} bytes allocated on first use and reused; when all are taken, a new message takes the
 *     slot idle longest (a genuine message completes within one poll, so the one evicted is almost always a
 *     stalled or hostile one), counted in {@link #evicted()};</li>
 *     <li>a message longer than {@code maxMessageLength} is dropped as soon as it is, counted in
 *     {@link #tooLong()}; it could never be a valid frame;</li>
 *     <li>{@link #onUnavailableImage(int)} frees a session's slot when its image goes away.</li>
 * </ul>
 * Unfragmented frames pass straight through and take no slot. Fragments out of order within a session (a gap)
 * drop the message, as Aeron's assembler does. Steady state allocates nothing. Agent thread only.
 */
public final class ControlAssembler implements FragmentHandler
{
    private static final int NONE = -1;

    private final FragmentHandler delegate;
    private final int maxMessageLength;
    private final Int2IntHashMap slotBySession;
    private final UnsafeBuffer[] buffers;
    private final int[] sessionOfSlot;
    private final int[] lengthOfSlot;
    private final int[] nextTermOffsetOfSlot;
    private final long[] lastUsedOfSlot;
    private long tick;
    private long evicted;
    private long tooLong;
    private long freedOnImageLoss;

    /**
     * @param delegate         takes each whole frame.
     * @param maxMessageLength longest frame reassembled.
     * @param maxSessions      most messages in reassembly at once.
     */
    public ControlAssembler(final FragmentHandler delegate, final int maxMessageLength, final int maxSessions)
    {
        if (maxSessions < 1 || maxMessageLength < 1)
        {
            throw new IllegalArgumentException("maxSessions and maxMessageLength must be positive: " + maxSessions +
                ", " + maxMessageLength);
        }
        this.delegate = delegate;
        this.maxMessageLength = maxMessageLength;
        // sized so it never grows: put and remove then allocate nothing
        this.slotBySession = new Int2IntHashMap(2 * maxSessions, 0.65f, NONE);
        this.buffers = new UnsafeBuffer[maxSessions];
        this.sessionOfSlot = new int[maxSessions];
        this.lengthOfSlot = new int[maxSessions];
        this.nextTermOffsetOfSlot = new int[maxSessions];
        this.lastUsedOfSlot = new long[maxSessions];
        Arrays.fill(lengthOfSlot, NONE);
    }

    /**
     * {@inheritDoc}
     */
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final byte flags = header.flags();
        if ((flags & FrameDescriptor.UNFRAGMENTED) == FrameDescriptor.UNFRAGMENTED)
        {
            delegate.onFragment(buffer, offset, length, header);
            return;
        }

        final int sessionId = header.sessionId();
        if ((flags & FrameDescriptor.BEGIN_FRAG_FLAG) == FrameDescriptor.BEGIN_FRAG_FLAG)
        {
            int slot = slotBySession.get(sessionId);
            if (slot == NONE)
            {
                slot = takeSlot(sessionId);
            }
            lengthOfSlot[slot] = 0;
            append(slot, sessionId, buffer, offset, length, header);
            return;
        }

        final int slot = slotBySession.get(sessionId);
        if (slot == NONE)
        {
            return;
        }
        if (header.termOffset() != nextTermOffsetOfSlot[slot])
        {
            // a gap: what follows cannot complete this message
            release(slot, sessionId);
            return;
        }
        if (append(slot, sessionId, buffer, offset, length, header) &&
            (flags & FrameDescriptor.END_FRAG_FLAG) == FrameDescriptor.END_FRAG_FLAG)
        {
            final int messageLength = lengthOfSlot[slot];
            release(slot, sessionId);
            delegate.onFragment(buffers[slot], 0, messageLength, header);
        }
    }

    /**
     * Free the slot of a session whose image went away (a peer restarted, or a sender gave up).
     *
     * @param sessionId the image's session.
     */
    public void onUnavailableImage(final int sessionId)
    {
        final int slot = slotBySession.get(sessionId);
        if (slot != NONE)
        {
            release(slot, sessionId);
            freedOnImageLoss++;
        }
    }

    /**
     * @return messages in reassembly now.
     */
    public int sessionsHeld()
    {
        return slotBySession.size();
    }

    /**
     * @return messages dropped half-assembled because every slot was taken and theirs was idle longest.
     */
    public long evicted()
    {
        return evicted;
    }

    /**
     * @return messages dropped for growing past the longest frame.
     */
    public long tooLong()
    {
        return tooLong;
    }

    /**
     * @return slots freed because their session's image went away.
     */
    public long freedOnImageLoss()
    {
        return freedOnImageLoss;
    }

    /**
     * @return bytes of reassembly buffers allocated so far: at most maxSessions times maxMessageLength.
     */
    public long bytesAllocated()
    {
        long bytes = 0;
        for (final UnsafeBuffer b : buffers)
        {
            bytes += b == null ? 0 : b.capacity();
        }
        return bytes;
    }

    private boolean append(
        final int slot,
        final int sessionId,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final Header header)
    {
        final int at = lengthOfSlot[slot];
        if (length > maxMessageLength - at)
        {
            tooLong++;
            release(slot, sessionId);
            return false;
        }
        UnsafeBuffer into = buffers[slot];
        if (into == null)
        {
            into = new UnsafeBuffer(new byte[maxMessageLength]);
            buffers[slot] = into;
        }
        into.putBytes(at, buffer, offset, length);
        lengthOfSlot[slot] = at + length;
        nextTermOffsetOfSlot[slot] = header.nextTermOffset();
        lastUsedOfSlot[slot] = ++tick;
        return true;
    }

    private int takeSlot(final int sessionId)
    {
        int slot = NONE;
        for (int i = 0; i < sessionOfSlot.length; i++)
        {
            if (lengthOfSlot[i] == NONE)
            {
                slot = i;
                break;
            }
            if (slot == NONE || lastUsedOfSlot[i] < lastUsedOfSlot[slot])
            {
                slot = i;
            }
        }
        if (lengthOfSlot[slot] != NONE)
        {
            release(slot, sessionOfSlot[slot]);
            evicted++;
        }
        sessionOfSlot[slot] = sessionId;
        slotBySession.put(sessionId, slot);
        return slot;
    }

    private void release(final int slot, final int sessionId)
    {
        slotBySession.remove(sessionId);
        lengthOfSlot[slot] = NONE;
    }
}
