package io.ringwatch.transport.rdma;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCPostRecv;
import com.ibm.disni.verbs.SVCPostSend;
import io.ringwatch.core.slot.HeartbeatSlotLayout;
import io.ringwatch.nativeconfig.HostFiles;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.LinkedList;

/**
 * {@link RdmaVerbs} on real hardware through DiSNI 2.1 (JNI over libibverbs and librdmacm).
 * <p>
 * One event channel carries every connection-manager event; one completion queue serves every queue pair, so a duty
 * cycle polls one queue whatever the number of connections. Outbound queue pairs live in the node's protection
 * domain, which holds only local-access registrations (the source slot and the outbound handshake buffers): nothing
 * of this node is remotely writable through them. Each inbound connection gets a protection domain of its own,
 * holding its handshake buffers and, once {@link #grant granted}, a registration of the heartbeat slot with remote
 * write: that rkey is refused on every other queue pair (an rkey is only valid on queue pairs of its domain) and dies
 * when the connection is closed. Outbound connections are bound to the listener's address before resolving, so they
 * use the same device.
 *
 * <h2>Where the handshake travels</h2>
 * In rdma_cm terms the emitter's hello belongs in the private data of its connect request and the observer's answer
 * in that of its accept, so an observer could refuse a stranger before making a queue pair. DiSNI 2.1 cannot do that:
 * {@code RdmaConnParam.setPrivate_data} does reach {@code rdma_connect} (up to 56 bytes on InfiniBand), but the
 * listening side's {@code getCmEvent} copies only the event type and the two ids out of {@code rdma_cm_event}, hands
 * Java an empty {@code RdmaConnParam}, and its accept sends no private data; there is no reject call either. So the
 * handshake's three messages ({@link RdmaHello}) are SENDs on the new queue pair, into receives posted before
 * connecting or accepting, and a request the node will not take is refused by destroying its id (the kernel's CM
 * answers the requester with a reject). An unauthenticated peer thus holds a queue pair for at most one handshake
 * timeout, in a protection domain where nothing is writable. It costs three messages at connection time, never at
 * mending time, because connections are made ahead of need.
 *
 * <h2>Allocation</h2>
 * {@link #postWrite} and {@link #pollCompletions} of write completions do not allocate (pre-built DiSNI calls over
 * fixed native memory). Connection setup and handshakes do, and so does every {@link #pollEvents} call (DiSNI
 * allocates per event poll), which is why the caller paces it.
 * <p>
 * Not run on hardware here (no device on this project's machines); {@code RdmaHardwareLoopbackTest} runs it where
 * one exists.
 */
public final class DisniVerbs implements RdmaVerbs
{
    private static final int LISTEN_BACKLOG = 16;
    private static final int POLL_BATCH = 16;
    private static final byte RETRY_COUNT = 7;
    private static final int AREA = MESSAGE_LENGTH;
    // per connection: two receive areas and one send area outbound; one receive and two send areas inbound
    private static final int AREAS = 3;
    private static final int SUCCESS = IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal();
    private static final RdmaCmEvent.EventType[] EVENT_TYPES = RdmaCmEvent.EventType.values();

    private static final long KIND_WRITE = 0;
    private static final long KIND_OUT_RECV_FIRST = 1;
    private static final long KIND_OUT_RECV_SECOND = 2;
    private static final long KIND_OUT_SEND = 3;
    private static final long KIND_IN_RECV = 4;
    private static final long KIND_IN_SEND = 5;

    private static final int RESOLVING_ADDRESS = 1;
    private static final int RESOLVING_ROUTE = 2;
    private static final int CONNECTING = 3;
    private static final int READY = 4;

    private final int capacity;
    private final int inboundCapacity;
    private final int sendQueueDepth;
    private final int timeoutMs;

    private final UnsafeBuffer outboundScratch;
    private final UnsafeBuffer inboundScratch;
    private final IbvWC[] completions = new IbvWC[POLL_BATCH];

    private RdmaEventChannel cmChannel;
    private RdmaCmId listenId;
    private IbvContext context;
    private IbvPd pd;
    private IbvCompChannel compChannel;
    private IbvCQ cq;
    private IbvMr sourceMr;
    private IbvMr scratchMr;
    private SVCPollCq pollCompletions;
    private HeartbeatSlot source;
    private long slotAddress;
    private InetSocketAddress bindAddress;
    private InetSocketAddress localEndpoint;
    private PortStateFile portState;

    private final RdmaCmId[] ids;
    private final int[] phase;
    private final int[] generation;
    private final RemoteSlot[] bound;
    private final SVCPostSend[] unsignalledWrites;
    private final SVCPostSend[] signalledWrites;
    private final SVCPostSend[] helloSends;
    private final SVCPostRecv[] messageReceives;

    private final RdmaCmId[] inboundIds;
    private final int[] inboundGeneration;
    private final int[] inboundSent;
    private final IbvPd[] inboundPds;
    private final IbvMr[] inboundScratchMrs;
    private final IbvMr[] inboundSlotMrs;
    private final SVCPostRecv[] inboundReceives;
    private final SVCPostSend[][] inboundSends;

    private String lastError = "";

    /**
     * @param capacity        outbound connection ids, [0, capacity).
     * @param inboundCapacity inbound connection ids the caller may hand out, [0, inboundCapacity).
     * @param signalInterval  one write in this many is signalled; sizes the send queue.
     * @param timeoutMs       rdma_cm address and route resolution timeout.
     */
    public DisniVerbs(final int capacity, final int inboundCapacity, final int signalInterval, final int timeoutMs)
    {
        if (capacity < 1 || capacity > 0xFFFF || inboundCapacity < 1 || inboundCapacity > 0xFFFF)
        {
            throw new IllegalArgumentException("capacities must be in [1, 65535]: " + capacity + ", " +
                inboundCapacity);
        }
        this.capacity = capacity;
        this.inboundCapacity = inboundCapacity;
        this.sendQueueDepth = 2 * signalInterval;
        this.timeoutMs = timeoutMs;
        this.outboundScratch = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            AREAS * AREA * capacity, HeartbeatSlotLayout.SLOT_ALIGNMENT));
        this.inboundScratch = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            AREAS * AREA * inboundCapacity, HeartbeatSlotLayout.SLOT_ALIGNMENT));
        ids = new RdmaCmId[capacity];
        phase = new int[capacity];
        generation = new int[capacity];
        bound = new RemoteSlot[capacity];
        unsignalledWrites = new SVCPostSend[capacity];
        signalledWrites = new SVCPostSend[capacity];
        helloSends = new SVCPostSend[capacity];
        messageReceives = new SVCPostRecv[capacity];
        inboundIds = new RdmaCmId[inboundCapacity];
        inboundGeneration = new int[inboundCapacity];
        inboundSent = new int[inboundCapacity];
        inboundPds = new IbvPd[inboundCapacity];
        inboundScratchMrs = new IbvMr[inboundCapacity];
        inboundSlotMrs = new IbvMr[inboundCapacity];
        inboundReceives = new SVCPostRecv[inboundCapacity];
        inboundSends = new SVCPostSend[inboundCapacity][];
        for (int i = 0; i < POLL_BATCH; i++)
        {
            completions[i] = new IbvWC();
        }
    }

    /**
     * {@inheritDoc}
     */
    public void open(final InetSocketAddress bindAddress, final HeartbeatSlot localSlot,
        final HeartbeatSlot sourceSlot) throws IOException
    {
        final String unsupported = RdmaEndpoint.unsupportedByDisniReason(bindAddress);
        if (unsupported != null)
        {
            throw new IOException(unsupported);
        }
        this.bindAddress = bindAddress;
        this.source = sourceSlot;
        this.slotAddress = localSlot.address();
        try
        {
            cmChannel = RdmaEventChannel.createEventChannel();
            listenId = cmChannel.createId(RdmaCm.RDMA_PS_TCP);
            listenId.bindAddr(bindAddress);
            listenId.listen(LISTEN_BACKLOG);
            context = listenId.getVerbs();
            if (context == null)
            {
                throw new IOException(bindAddress + " is not the address of an RDMA interface (IPoIB or RoCE)");
            }
            pd = context.allocPd();
            compChannel = context.createCompChannel();
            cq = context.createCQ(compChannel,
                capacity * (sendQueueDepth + AREAS) + inboundCapacity * AREAS + POLL_BATCH, 0);
            pollCompletions = cq.poll(completions, POLL_BATCH);

            sourceMr = register(pd, sourceSlot.address(), HeartbeatSlotLayout.SLOT_LENGTH,
                IbvMr.IBV_ACCESS_LOCAL_WRITE);
            scratchMr = register(pd, outboundScratch.addressOffset(), outboundScratch.capacity(),
                IbvMr.IBV_ACCESS_LOCAL_WRITE);

            final SocketAddress boundAddress = listenId.getSource();
            localEndpoint = boundAddress instanceof InetSocketAddress ? (InetSocketAddress)boundAddress : bindAddress;
            portState = PortStateFile.forAddress(bindAddress.getAddress(), HostFiles.SYS_CLASS_INFINIBAND);
        }
        catch (final IOException | RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    private static IbvMr register(final IbvPd domain, final long address, final int length, final int access)
        throws IOException
    {
        return domain.regMr(address, length, access).execute().free().getMr();
    }

    /**
     * {@inheritDoc}
     */
    public InetSocketAddress localEndpoint()
    {
        return localEndpoint;
    }

    /**
     * {@inheritDoc}
     */
    public void connect(final int connection, final InetSocketAddress observer) throws IOException
    {
        final String unsupported = RdmaEndpoint.unsupportedByDisniReason(observer);
        if (unsupported != null)
        {
            throw new IOException(unsupported);
        }
        release(connection);
        generation[connection]++;
        final RdmaCmId id = cmChannel.createId(RdmaCm.RDMA_PS_TCP);
        ids[connection] = id;
        try
        {
            // bound to the listener's address: same device, so the shared protection domain and CQ fit
            id.bindAddr(new InetSocketAddress(bindAddress.getAddress(), 0));
            id.resolveAddr(null, observer, timeoutMs);
            phase[connection] = RESOLVING_ADDRESS;
        }
        catch (final IOException | RuntimeException ex)
        {
            release(connection);
            throw new IOException("resolve " + observer + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * {@inheritDoc}
     */
    public boolean send(final int id, final boolean inbound, final DirectBuffer message)
    {
        try
        {
            if (inbound)
            {
                final int sent = inboundSent[id];
                if (inboundIds[id] == null || inboundSends[id] == null || sent >= inboundSends[id].length)
                {
                    lastError = "no handshake message left to send on inbound connection " + id;
                    return false;
                }
                inboundScratch.putBytes(inboundArea(id, 1 + sent), message, 0, MESSAGE_LENGTH);
                inboundSends[id][sent].execute();
                inboundSent[id] = sent + 1;
                return true;
            }
            // the observer speaks first and only once the connection is established, so the queue pair can send
            if (helloSends[id] == null || phase[id] < CONNECTING)
            {
                lastError = "send on connection " + id + " that has no queue pair";
                return false;
            }
            outboundScratch.putBytes(outboundArea(id, 2), message, 0, MESSAGE_LENGTH);
            helloSends[id].execute();
            return true;
        }
        catch (final IOException ex)
        {
            lastError = "post SEND failed: " + ex.getMessage();
            return false;
        }
    }

    /**
     * {@inheritDoc}
     */
    public RemoteSlot grant(final int inbound) throws IOException
    {
        if (inboundIds[inbound] == null || inboundPds[inbound] == null || inboundSlotMrs[inbound] != null)
        {
            throw new IOException("inbound connection " + inbound + " is not open or already granted");
        }
        final IbvMr mr = register(inboundPds[inbound], slotAddress, HeartbeatSlotLayout.SLOT_LENGTH,
            IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_WRITE);
        inboundSlotMrs[inbound] = mr;
        return new RemoteSlot(mr.getAddr(), mr.getRkey(), HeartbeatSlotLayout.SLOT_LENGTH);
    }

    /**
     * {@inheritDoc}
     */
    public void closeInbound(final int inbound)
    {
        releaseInbound(inbound);
    }

    /**
     * {@inheritDoc}
     */
    public boolean postWrite(final int connection, final RemoteSlot target, final boolean signalled)
    {
        // the grant came over this queue pair, so it can carry writes whether or not ESTABLISHED was polled yet
        if (phase[connection] < CONNECTING || unsignalledWrites[connection] == null)
        {
            lastError = "post on connection " + connection + " that is not established";
            return false;
        }
        try
        {
            if (bound[connection] != target)
            {
                retarget(unsignalledWrites[connection], target);
                retarget(signalledWrites[connection], target);
                bound[connection] = target;
            }
            (signalled ? signalledWrites[connection] : unsignalledWrites[connection]).execute();
            return true;
        }
        catch (final IOException ex)
        {
            lastError = "post RDMA WRITE failed: " + ex.getMessage();
            return false;
        }
    }

    private static void retarget(final SVCPostSend write, final RemoteSlot target) throws IOException
    {
        write.getWrMod(0).getRdmaMod().setRemote_addr(target.address());
        write.getWrMod(0).getRdmaMod().setRkey(target.rkey());
    }

    /**
     * {@inheritDoc}
     */
    public int pollCompletions(final Listener listener)
    {
        final int polled;
        try
        {
            polled = pollCompletions.execute().getPolls();
        }
        catch (final IOException ex)
        {
            lastError = "poll CQ failed: " + ex.getMessage();
            return 0;
        }
        for (int i = 0; i < polled; i++)
        {
            final IbvWC wc = completions[i];
            final long wrId = wc.getWr_id();
            final long kind = wrId >>> 56;
            final int index = (int)(wrId & 0xFFFF);
            final int wrGeneration = (int)((wrId >>> 16) & 0xFFFF_FFFFL);
            final boolean success = wc.getStatus() == SUCCESS;
            if (kind == KIND_IN_RECV || kind == KIND_IN_SEND)
            {
                onInboundCompletion(index, wrGeneration, kind, success, wc, listener);
                continue;
            }
            if (index >= capacity || ids[index] == null || wrGeneration != generation[index])
            {
                continue; // completion of a queue pair already torn down
            }
            if (kind == KIND_WRITE)
            {
                listener.onWriteCompleted(index, success, success ? null : describe(wc));
            }
            else if (kind == KIND_OUT_SEND)
            {
                if (!success)
                {
                    fail(index, "hello SEND completed with " + describe(wc), listener);
                }
            }
            else if (!success || wc.getByte_len() != MESSAGE_LENGTH)
            {
                fail(index, success ? "observer sent " + wc.getByte_len() + " bytes, not a handshake message" :
                    "handshake receive completed with " + describe(wc), listener);
            }
            else
            {
                listener.onMessage(index, false, outboundScratch,
                    outboundArea(index, kind == KIND_OUT_RECV_FIRST ? 0 : 1));
            }
        }
        return polled;
    }

    private void onInboundCompletion(final int index, final int wrGeneration, final long kind, final boolean success,
        final IbvWC wc, final Listener listener)
    {
        if (index >= inboundCapacity || inboundIds[index] == null || wrGeneration != inboundGeneration[index])
        {
            return;
        }
        if (!success || (kind == KIND_IN_RECV && wc.getByte_len() != MESSAGE_LENGTH))
        {
            final String reason = success ? "emitter sent " + wc.getByte_len() + " bytes, not a handshake message" :
                "handshake " + (kind == KIND_IN_RECV ? "receive" : "SEND") + " completed with " + describe(wc);
            lastError = reason;
            releaseInbound(index);
            listener.onInboundClosed(index, reason);
            return;
        }
        if (kind == KIND_IN_RECV)
        {
            listener.onMessage(index, true, inboundScratch, inboundArea(index, 0));
        }
    }

    /**
     * {@inheritDoc}
     */
    public int pollEvents(final Listener listener)
    {
        int events = 0;
        while (cmChannel != null)
        {
            final RdmaCmEvent event;
            try
            {
                event = cmChannel.getCmEvent(0);
            }
            catch (final IOException ex)
            {
                lastError = "CM event poll failed: " + ex.getMessage();
                return events;
            }
            if (event == null)
            {
                return events;
            }
            events++;
            final RdmaCmId id = event.getConnIdPriv();
            final int connection = outboundIndex(id);
            if (connection >= 0)
            {
                onOutboundEvent(connection, event.getEvent(), listener);
            }
            else
            {
                onInboundEvent(id, event.getEvent(), listener);
            }
        }
        return events;
    }

    private void onOutboundEvent(final int connection, final int type, final Listener listener)
    {
        final RdmaCmId id = ids[connection];
        try
        {
            if (phase[connection] == RESOLVING_ADDRESS && is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_ADDR_RESOLVED))
            {
                id.resolveRoute(timeoutMs);
                phase[connection] = RESOLVING_ROUTE;
            }
            else if (phase[connection] == RESOLVING_ROUTE &&
                is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_ROUTE_RESOLVED))
            {
                createQueuePair(id, pd, sendQueueDepth + 1, 2);
                messageReceives[connection] = id.getQp().postRecv(outboundReceives(connection), null);
                messageReceives[connection].execute();
                helloSends[connection] = id.getQp().postSend(send(wrId(KIND_OUT_SEND, connection),
                    outboundScratch.addressOffset() + outboundArea(connection, 2), scratchMr.getLkey()), null);
                unsignalledWrites[connection] = id.getQp().postSend(writeRequest(connection, false), null);
                signalledWrites[connection] = id.getQp().postSend(writeRequest(connection, true), null);
                bound[connection] = null;
                final RdmaConnParam param = new RdmaConnParam();
                param.setRetry_count(RETRY_COUNT);
                param.setRnr_retry_count(RETRY_COUNT);
                id.connect(param);
                phase[connection] = CONNECTING;
            }
            else if (phase[connection] == CONNECTING && is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED))
            {
                phase[connection] = READY; // the observer's challenge follows on the queue pair
            }
            else if (is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED) ||
                is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_DEVICE_REMOVAL))
            {
                final boolean wasReady = phase[connection] == READY;
                release(connection);
                if (wasReady)
                {
                    listener.onDisconnected(connection, eventName(type));
                }
                else
                {
                    listener.onConnectFailed(connection, eventName(type));
                }
            }
            else if (!is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_TIMEWAIT_EXIT))
            {
                fail(connection, eventName(type) + " while " + phaseName(phase[connection]), listener);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            fail(connection, phaseName(phase[connection]) + " failed: " + ex.getMessage(), listener);
        }
    }

    private void onInboundEvent(final RdmaCmId id, final int type, final Listener listener)
    {
        if (id == null)
        {
            return;
        }
        if (is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_REQUEST))
        {
            final int index = listener.onConnectRequest();
            if (index < 0 || index >= inboundCapacity || inboundIds[index] != null)
            {
                releaseConnection(id); // destroying an unanswered request's id makes the kernel's CM reject it
                return;
            }
            accept(index, id, listener);
            return;
        }
        final int index = inboundIndex(id);
        if (index < 0)
        {
            return;
        }
        if (is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED))
        {
            listener.onInboundConnected(index);
        }
        else if (is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED) ||
            is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_ERROR) ||
            is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_UNREACHABLE) ||
            is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_DEVICE_REMOVAL))
        {
            releaseInbound(index);
            listener.onInboundClosed(index, eventName(type));
        }
    }

    /**
     * Accept a request into a protection domain of its own holding only its handshake buffers: nothing of this node
     * is writable through the new queue pair until {@link #grant}.
     */
    private void accept(final int index, final RdmaCmId id, final Listener listener)
    {
        inboundIds[index] = id;
        inboundGeneration[index]++;
        inboundSent[index] = 0;
        try
        {
            final IbvPd domain = context.allocPd();
            inboundPds[index] = domain;
            final IbvMr mr = register(domain, inboundScratch.addressOffset() + inboundArea(index, 0), AREAS * AREA,
                IbvMr.IBV_ACCESS_LOCAL_WRITE);
            inboundScratchMrs[index] = mr;
            createQueuePair(id, domain, 2, 1);
            final LinkedList<IbvRecvWR> receive = new LinkedList<>();
            receive.add(receiveRequest(wrId(KIND_IN_RECV, index, inboundGeneration[index]),
                inboundScratch.addressOffset() + inboundArea(index, 0), mr.getLkey()));
            inboundReceives[index] = id.getQp().postRecv(receive, null);
            inboundReceives[index].execute();
            final long sendId = wrId(KIND_IN_SEND, index, inboundGeneration[index]);
            inboundSends[index] = new SVCPostSend[] {
                id.getQp().postSend(send(sendId, inboundScratch.addressOffset() + inboundArea(index, 1),
                    mr.getLkey()), null),
                id.getQp().postSend(send(sendId, inboundScratch.addressOffset() + inboundArea(index, 2),
                    mr.getLkey()), null)
            };
            final RdmaConnParam param = new RdmaConnParam();
            param.setRetry_count(RETRY_COUNT);
            param.setRnr_retry_count(RETRY_COUNT);
            id.accept(param);
        }
        catch (final IOException | RuntimeException ex)
        {
            lastError = "accept failed: " + ex.getMessage();
            releaseInbound(index);
            listener.onInboundClosed(index, lastError);
        }
    }

    private void createQueuePair(final RdmaCmId id, final IbvPd domain, final int sendDepth, final int receiveDepth)
        throws IOException
    {
        final IbvQPInitAttr attr = new IbvQPInitAttr();
        attr.setQp_type(IbvQP.IBV_QPT_RC);
        attr.setSend_cq(cq);
        attr.setRecv_cq(cq);
        attr.cap().setMax_send_wr(sendDepth);
        attr.cap().setMax_recv_wr(receiveDepth);
        attr.cap().setMax_send_sge(1);
        attr.cap().setMax_recv_sge(1);
        attr.cap().setMax_inline_data(HeartbeatSlotLayout.SLOT_LENGTH);
        if (id.createQP(domain, attr) == null)
        {
            throw new IOException("rdma_create_qp failed (route uses another device than " + bindAddress + "?)");
        }
    }

    private LinkedList<IbvSendWR> writeRequest(final int connection, final boolean signalled)
    {
        // the remote address and rkey are set from the grant at the first post (bound[] is null until then)
        final IbvSendWR wr = sendRequest(wrId(KIND_WRITE, connection), source.address(),
            HeartbeatSlotLayout.PAYLOAD_LENGTH, sourceMr.getLkey(), true, signalled);
        wr.setOpcode(IbvSendWR.IBV_WR_RDMA_WRITE);
        final LinkedList<IbvSendWR> list = new LinkedList<>();
        list.add(wr);
        return list;
    }

    private static LinkedList<IbvSendWR> send(final long wrId, final long address, final int lkey)
    {
        // not inline (a message is longer than the inline limit asked for), signalled so a failure is seen
        final IbvSendWR wr = sendRequest(wrId, address, MESSAGE_LENGTH, lkey, false, true);
        wr.setOpcode(IbvSendWR.IBV_WR_SEND);
        final LinkedList<IbvSendWR> list = new LinkedList<>();
        list.add(wr);
        return list;
    }

    private static IbvSendWR sendRequest(final long wrId, final long address, final int length, final int lkey,
        final boolean inline, final boolean signalled)
    {
        final IbvSge sge = new IbvSge();
        sge.setAddr(address);
        sge.setLength(length);
        sge.setLkey(lkey);
        final LinkedList<IbvSge> sges = new LinkedList<>();
        sges.add(sge);
        final IbvSendWR wr = new IbvSendWR();
        wr.setWr_id(wrId);
        wr.setSg_list(sges);
        wr.setNum_sge(1);
        // inline beats: the payload is copied into the work request at post time, so the next beat may overwrite
        // the source at once, without waiting for a completion
        wr.setSend_flags((inline ? IbvSendWR.IBV_SEND_INLINE : 0) | (signalled ? IbvSendWR.IBV_SEND_SIGNALED : 0));
        return wr;
    }

    private LinkedList<IbvRecvWR> outboundReceives(final int connection)
    {
        // messages on a reliable connection consume receives in the order posted: the challenge, then the grant
        final LinkedList<IbvRecvWR> list = new LinkedList<>();
        list.add(receiveRequest(wrId(KIND_OUT_RECV_FIRST, connection),
            outboundScratch.addressOffset() + outboundArea(connection, 0), scratchMr.getLkey()));
        list.add(receiveRequest(wrId(KIND_OUT_RECV_SECOND, connection),
            outboundScratch.addressOffset() + outboundArea(connection, 1), scratchMr.getLkey()));
        return list;
    }

    private static IbvRecvWR receiveRequest(final long wrId, final long address, final int lkey)
    {
        final IbvSge sge = new IbvSge();
        sge.setAddr(address);
        sge.setLength(AREA);
        sge.setLkey(lkey);
        final LinkedList<IbvSge> sges = new LinkedList<>();
        sges.add(sge);
        final IbvRecvWR wr = new IbvRecvWR();
        wr.setWr_id(wrId);
        wr.setSg_list(sges);
        wr.setNum_sge(1);
        return wr;
    }

    private static int outboundArea(final int connection, final int area)
    {
        return (AREAS * connection + area) * AREA;
    }

    private static int inboundArea(final int inbound, final int area)
    {
        return (AREAS * inbound + area) * AREA;
    }

    private long wrId(final long kind, final int connection)
    {
        return wrId(kind, connection, generation[connection]);
    }

    private static long wrId(final long kind, final int index, final int generation)
    {
        return kind << 56 | (generation & 0xFFFF_FFFFL) << 16 | index;
    }

    private void fail(final int connection, final String reason, final Listener listener)
    {
        final boolean wasReady = phase[connection] == READY;
        lastError = reason;
        release(connection);
        if (wasReady)
        {
            listener.onDisconnected(connection, reason);
        }
        else
        {
            listener.onConnectFailed(connection, reason);
        }
    }

    /**
     * {@inheritDoc}
     */
    public void disconnect(final int connection)
    {
        release(connection);
    }

    private void release(final int connection)
    {
        freeCall(unsignalledWrites, connection);
        freeCall(signalledWrites, connection);
        freeCall(helloSends, connection);
        freeReceive(messageReceives, connection);
        if (ids[connection] != null)
        {
            releaseConnection(ids[connection]);
            ids[connection] = null;
        }
        phase[connection] = 0;
        bound[connection] = null;
    }

    private static void freeCall(final SVCPostSend[] calls, final int connection)
    {
        if (calls[connection] != null)
        {
            calls[connection].free();
            calls[connection] = null;
        }
    }

    private static void freeReceive(final SVCPostRecv[] calls, final int index)
    {
        if (calls[index] != null)
        {
            calls[index].free();
            calls[index] = null;
        }
    }

    private static void deregister(final IbvMr mr)
    {
        if (mr != null)
        {
            quietly(() -> mr.deregMr().execute().free());
        }
    }

    private void releaseInbound(final int index)
    {
        if (inboundSends[index] != null)
        {
            for (final SVCPostSend call : inboundSends[index])
            {
                call.free();
            }
            inboundSends[index] = null;
        }
        freeReceive(inboundReceives, index);
        if (inboundIds[index] != null)
        {
            // the queue pair goes before the registrations and the domain that hold it
            releaseConnection(inboundIds[index]);
            inboundIds[index] = null;
        }
        deregister(inboundSlotMrs[index]);
        deregister(inboundScratchMrs[index]);
        final IbvPd domain = inboundPds[index];
        if (domain != null)
        {
            quietly(domain::deallocPd);
        }
        inboundSlotMrs[index] = null;
        inboundScratchMrs[index] = null;
        inboundPds[index] = null;
        inboundGeneration[index]++;
    }

    private int inboundIndex(final RdmaCmId id)
    {
        for (int i = 0; i < inboundCapacity; i++)
        {
            if (inboundIds[i] == id)
            {
                return i;
            }
        }
        return -1;
    }

    private int outboundIndex(final RdmaCmId id)
    {
        if (id == null)
        {
            return -1;
        }
        for (int i = 0; i < capacity; i++)
        {
            if (ids[i] == id)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Read from the port's sysfs state file; true when no port could be tied to the bind address (unknown).
     */
    public boolean isLocalPortActive()
    {
        return portState == null || portState.isActive();
    }

    /**
     * @return the sysfs file the port state is read from, or {@code null} if none was found for the address.
     */
    public String portStateFile()
    {
        return portState == null ? null : portState.path().toString();
    }

    /**
     * {@inheritDoc}
     */
    public String lastError()
    {
        return lastError;
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        for (int i = 0; i < capacity; i++)
        {
            release(i);
        }
        for (int i = 0; i < inboundCapacity; i++)
        {
            releaseInbound(i);
        }
        if (pollCompletions != null)
        {
            pollCompletions.free();
            pollCompletions = null;
        }
        deregister(sourceMr);
        deregister(scratchMr);
        sourceMr = null;
        scratchMr = null;
        final IbvCQ cqToClose = cq;
        final IbvCompChannel channelToClose = compChannel;
        final IbvPd pdToClose = pd;
        if (cqToClose != null)
        {
            quietly(cqToClose::destroyCQ);
        }
        if (channelToClose != null)
        {
            quietly(channelToClose::destroyCompChannel);
        }
        if (pdToClose != null)
        {
            quietly(pdToClose::deallocPd);
        }
        cq = null;
        compChannel = null;
        pd = null;
        final RdmaCmId listenToClose = listenId;
        if (listenToClose != null)
        {
            quietly(listenToClose::destroyId);
            listenId = null;
        }
        final RdmaEventChannel cmToClose = cmChannel;
        if (cmToClose != null)
        {
            quietly(cmToClose::destroyEventChannel);
            cmChannel = null;
        }
        if (portState != null)
        {
            portState.close();
            portState = null;
        }
    }

    private static String describe(final IbvWC wc)
    {
        return IbvWC.IbvWcStatus.valueOf(wc.getStatus()) + " (vendor error 0x" +
            Integer.toHexString(wc.getVendor_err()) + ")";
    }

    private static boolean is(final int event, final RdmaCmEvent.EventType type)
    {
        return event == type.ordinal();
    }

    private static String eventName(final int event)
    {
        return event >= 0 && event < EVENT_TYPES.length ? EVENT_TYPES[event].name() : "RDMA_CM_EVENT_" + event;
    }

    private static String phaseName(final int phase)
    {
        switch (phase)
        {
            case RESOLVING_ADDRESS:
                return "resolving address";
            case RESOLVING_ROUTE:
                return "resolving route";
            case CONNECTING:
                return "connecting";
            case READY:
                return "established";
            default:
                return "idle";
        }
    }

    /**
     * Cleanup that must keep going after a step fails, so one broken verbs object does not leak the rest.
     */
    private interface Step
    {
        void run() throws Exception;
    }

    private static void quietly(final Step step)
    {
        try
        {
            step.run();
        }
        catch (final Exception ignore)
        {
            // best-effort release; the device may already have torn the object down
        }
    }

    private static void releaseConnection(final RdmaCmId id)
    {
        quietly(id::disconnect);
        if (id.getQp() != null)
        {
            quietly(id::destroyQP);
        }
        quietly(id::destroyId);
    }
}
