package io.ringwatch.transport.rdma;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCPostSend;
import io.ringwatch.core.slot.HeartbeatSlotLayout;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.LinkedList;
import java.util.concurrent.TimeUnit;

/**
 * Emitter side: one reliable-connected queue pair to the current observer and the pre-built RDMA WRITE that
 * copies this node's 24-byte payload into the observer's slot.
 * <p>
 * Connection setup is a non-blocking state machine stepped from the duty cycle (address resolution, route
 * resolution, connect), so mending the ring never blocks the agent. Once connected, a beat is: encode into
 * the local source slot, execute a pre-built post-send call (DiSNI serialised the work request once, at
 * build time), and occasionally poll the completion queue with a pre-built poll call. No allocation.
 * Connection-manager events are not polled while connected (DiSNI allocates per poll); a broken connection
 * shows up as an error completion on the next signalled write instead.
 */
final class SlotWriter implements AutoCloseable
{
    enum State
    {
        /** No observer known. */
        IDLE,
        RESOLVING_ADDRESS,
        RESOLVING_ROUTE,
        CONNECTING,
        CONNECTED,
        /** Last attempt failed; retry at {@link #retryAtNs}. */
        BACKING_OFF
    }

    private static final int POLL_BATCH = 4;
    private static final int SUCCESS = IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal();

    private final UnsafeBuffer sourceBuffer = HeartbeatSlot.allocateAligned();
    private final HeartbeatSlot source = new HeartbeatSlot().wrap(sourceBuffer, 0).reset();
    private final IbvWC[] completions = new IbvWC[POLL_BATCH];
    private final SignalPacer pacer;
    private final int sendQueueDepth;
    private final long connectTimeoutNs;
    private final long reconnectBackoffNs;
    private final RdmaEventChannel cmChannel;

    private State state = State.IDLE;
    private int observerRank = -1;
    private InetSocketAddress observerEndpoint;
    private RemoteSlot observerSlot;
    private long deadlineNs;
    private long retryAtNs;
    private long nowNs;

    private RdmaCmId id;
    private IbvPd pd;
    private IbvCompChannel compChannel;
    private IbvCQ cq;
    private IbvMr sourceMr;
    private SVCPostSend unsignalledWrite;
    private SVCPostSend signalledWrite;
    private SVCPollCq pollCompletions;

    private long posted;
    private long droppedQueueFull;
    private long completionsReaped;
    private long completionErrors;
    private long connectAttempts;
    private long connectFailures;
    private long connectionsEstablished;
    private String lastFailure = "";

    SlotWriter(final int signalInterval, final long connectTimeoutNs, final long reconnectBackoffNs)
        throws IOException
    {
        this.sendQueueDepth = 2 * signalInterval;
        this.pacer = new SignalPacer(signalInterval, sendQueueDepth);
        this.connectTimeoutNs = connectTimeoutNs;
        this.reconnectBackoffNs = reconnectBackoffNs;
        for (int i = 0; i < POLL_BATCH; i++)
        {
            completions[i] = new IbvWC();
        }
        cmChannel = RdmaEventChannel.createEventChannel();
    }

    /**
     * Switch to a new observer, dropping any connection to the previous one.
     */
    void connect(final int rank, final InetSocketAddress endpoint, final RemoteSlot slot, final long nowNs)
    {
        this.nowNs = nowNs;
        teardown();
        observerRank = rank;
        observerEndpoint = endpoint;
        observerSlot = slot;
        startAttempt();
    }

    int observerRank()
    {
        return observerRank;
    }

    boolean isConnected()
    {
        return state == State.CONNECTED;
    }

    State state()
    {
        return state;
    }

    /**
     * Step connection setup or reap completions.
     *
     * @param nowNs the duty cycle's clock reading.
     * @return work done.
     */
    int doWork(final long nowNs)
    {
        this.nowNs = nowNs;
        switch (state)
        {
            case CONNECTED:
                return reap();

            case RESOLVING_ADDRESS:
            case RESOLVING_ROUTE:
            case CONNECTING:
                return pollConnectionEvent();

            case BACKING_OFF:
                if (nowNs - retryAtNs >= 0)
                {
                    startAttempt();
                    return 1;
                }
                return 0;

            default:
                return 0;
        }
    }

    /**
     * Post one heartbeat write.
     *
     * @return false if not connected or the send queue is full (the beat is lost; the next one carries a
     * larger counter, which is all the observer needs).
     */
    boolean write(final long counter, final int rank, final int incarnation, final long timestampNs)
    {
        if (state != State.CONNECTED)
        {
            return false;
        }
        if (!pacer.canPost())
        {
            reap();
            if (state != State.CONNECTED || !pacer.canPost())
            {
                droppedQueueFull++;
                return false;
            }
        }

        source.encode(counter, rank, incarnation, timestampNs);
        try
        {
            (pacer.onPost() ? signalledWrite : unsignalledWrite).execute();
            posted++;
            return true;
        }
        catch (final IOException ex)
        {
            fail("post send failed: " + ex.getMessage());
            return false;
        }
    }

    private int reap()
    {
        final int polled;
        try
        {
            polled = pollCompletions.execute().getPolls();
        }
        catch (final IOException ex)
        {
            fail("poll CQ failed: " + ex.getMessage());
            return 1;
        }

        for (int i = 0; i < polled; i++)
        {
            final int status = completions[i].getStatus();
            if (status != SUCCESS)
            {
                completionErrors++;
                fail("RDMA WRITE completed with " + IbvWC.IbvWcStatus.valueOf(status) + " (vendor error 0x" +
                    Integer.toHexString(completions[i].getVendor_err()) + ")");
                return 1;
            }
            completionsReaped++;
            pacer.onSignalledCompletion();
        }
        return polled;
    }

    private void startAttempt()
    {
        connectAttempts++;
        deadlineNs = nowNs + connectTimeoutNs;
        try
        {
            id = cmChannel.createId(RdmaCm.RDMA_PS_TCP);
            id.resolveAddr(null, observerEndpoint, timeoutMs());
            state = State.RESOLVING_ADDRESS;
        }
        catch (final IOException | RuntimeException ex)
        {
            fail("resolve address of " + observerEndpoint + " failed: " + ex.getMessage());
        }
    }

    private int pollConnectionEvent()
    {
        final RdmaCmEvent event;
        try
        {
            event = cmChannel.getCmEvent(0);
        }
        catch (final IOException ex)
        {
            fail("CM event poll failed: " + ex.getMessage());
            return 1;
        }

        if (event == null)
        {
            if (nowNs - deadlineNs >= 0)
            {
                fail(state + " to rank " + observerRank + " at " + observerEndpoint + " timed out after " +
                    TimeUnit.NANOSECONDS.toMillis(connectTimeoutNs) + " ms");
                return 1;
            }
            return 0;
        }
        if (event.getConnIdPriv() != id)
        {
            return 1; // late event of an id already torn down
        }

        final int type = event.getEvent();
        try
        {
            if (state == State.RESOLVING_ADDRESS && Verbs.is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_ADDR_RESOLVED))
            {
                id.resolveRoute(timeoutMs());
                state = State.RESOLVING_ROUTE;
            }
            else if (state == State.RESOLVING_ROUTE &&
                Verbs.is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_ROUTE_RESOLVED))
            {
                createQueuePair();
                final RdmaConnParam param = new RdmaConnParam();
                param.setRetry_count((byte)7);
                id.connect(param);
                state = State.CONNECTING;
            }
            else if (state == State.CONNECTING && Verbs.is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED))
            {
                buildWrites();
                pacer.reset();
                connectionsEstablished++;
                state = State.CONNECTED;
            }
            else
            {
                fail(Verbs.eventName(type) + " while " + state + " to rank " + observerRank + " at " +
                    observerEndpoint);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            fail(state + " to rank " + observerRank + " failed: " + ex.getMessage());
        }
        return 1;
    }

    private void createQueuePair() throws IOException
    {
        final IbvContext context = id.getVerbs();
        pd = context.allocPd();
        compChannel = context.createCompChannel();
        cq = context.createCQ(compChannel, sendQueueDepth + POLL_BATCH, 0);
        sourceMr = pd.regMr(source.address(), HeartbeatSlotLayout.SLOT_LENGTH, IbvMr.IBV_ACCESS_LOCAL_WRITE)
            .execute().free().getMr();
        pollCompletions = cq.poll(completions, POLL_BATCH);

        final IbvQPInitAttr attr = new IbvQPInitAttr();
        attr.setQp_type(IbvQP.IBV_QPT_RC);
        attr.setSend_cq(cq);
        attr.setRecv_cq(cq);
        attr.cap().setMax_send_wr(sendQueueDepth);
        attr.cap().setMax_recv_wr(1);
        attr.cap().setMax_send_sge(1);
        attr.cap().setMax_recv_sge(1);
        attr.cap().setMax_inline_data(HeartbeatSlotLayout.SLOT_LENGTH);
        id.createQP(pd, attr);
    }

    private void buildWrites() throws IOException
    {
        unsignalledWrite = id.getQp().postSend(writeRequest(false), null);
        signalledWrite = id.getQp().postSend(writeRequest(true), null);
    }

    private LinkedList<IbvSendWR> writeRequest(final boolean signalled)
    {
        final IbvSge sge = new IbvSge();
        sge.setAddr(source.address());
        sge.setLength(HeartbeatSlotLayout.PAYLOAD_LENGTH);
        sge.setLkey(sourceMr.getLkey());
        final LinkedList<IbvSge> sges = new LinkedList<>();
        sges.add(sge);

        final IbvSendWR wr = new IbvSendWR();
        wr.setWr_id(signalled ? 1 : 0);
        wr.setSg_list(sges);
        wr.setNum_sge(1);
        wr.setOpcode(IbvSendWR.IBV_WR_RDMA_WRITE);
        // inline: the payload is copied into the work queue entry at post time, so the source can be
        // rewritten by the next beat without waiting for a completion
        wr.setSend_flags(IbvSendWR.IBV_SEND_INLINE | (signalled ? IbvSendWR.IBV_SEND_SIGNALED : 0));
        wr.getRdma().setRemote_addr(observerSlot.address());
        wr.getRdma().setRkey(observerSlot.rkey());

        final LinkedList<IbvSendWR> list = new LinkedList<>();
        list.add(wr);
        return list;
    }

    private void fail(final String reason)
    {
        lastFailure = reason;
        connectFailures++;
        teardown();
        state = State.BACKING_OFF;
        retryAtNs = nowNs + reconnectBackoffNs;
    }

    private int timeoutMs()
    {
        return (int)Math.max(1, TimeUnit.NANOSECONDS.toMillis(connectTimeoutNs));
    }

    private void teardown()
    {
        state = observerRank < 0 ? State.IDLE : State.BACKING_OFF;
        if (unsignalledWrite != null)
        {
            unsignalledWrite.free();
            unsignalledWrite = null;
        }
        if (signalledWrite != null)
        {
            signalledWrite.free();
            signalledWrite = null;
        }
        if (pollCompletions != null)
        {
            pollCompletions.free();
            pollCompletions = null;
        }
        if (id != null)
        {
            Verbs.releaseConnection(id);
            id = null;
        }
        Verbs.releaseQuietly(sourceMr, cq, compChannel, pd);
        sourceMr = null;
        cq = null;
        compChannel = null;
        pd = null;
        pacer.reset();
    }

    long posted()
    {
        return posted;
    }

    long droppedQueueFull()
    {
        return droppedQueueFull;
    }

    long completionsReaped()
    {
        return completionsReaped;
    }

    long completionErrors()
    {
        return completionErrors;
    }

    long connectAttempts()
    {
        return connectAttempts;
    }

    long connectFailures()
    {
        return connectFailures;
    }

    long connectionsEstablished()
    {
        return connectionsEstablished;
    }

    String lastFailure()
    {
        return lastFailure;
    }

    public void close()
    {
        observerRank = -1;
        teardown();
        state = State.IDLE;
        Verbs.quietly(cmChannel::destroyEventChannel);
    }
}
