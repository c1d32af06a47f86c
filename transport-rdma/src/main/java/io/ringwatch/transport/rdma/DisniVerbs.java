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
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * {@link RdmaVerbs} on real hardware through DiSNI 2.1 (JNI over libibverbs and librdmacm).
 * <p>
 * One event channel carries every connection-manager event; one protection domain holds the three registrations
 * (the heartbeat slot with remote write, the source slot and a small scratch area with local access); one
 * completion queue serves every queue pair, so a duty cycle polls one queue whatever the number of connections.
 * Every queue pair is created on that protection domain, which is what makes the slot's rkey valid on inbound
 * connections. Outbound connections are bound to the listener's address before resolving, so they use the same
 * device as the registrations.
 *
 * <h2>How the observer's slot reaches the emitter</h2>
 * In rdma_cm terms the descriptor belongs in the private data of the observer's accept. DiSNI 2.1's JNI layer
 * sends no private data on accept and hands none of a received event's private data to Java, so the observer
 * instead posts one 16-byte SEND (address, rkey, length) as soon as an inbound connection is established, into a
 * receive the emitter posted before connecting; the emitter reports the connection established only once it holds
 * that descriptor. It costs one message at connection time, never at mending time, because connections are made
 * ahead of need.
 *
 * <h2>Allocation</h2>
 * {@link #postWrite} and {@link #pollCompletions} do not allocate (pre-built DiSNI calls over fixed native
 * memory). Connection setup does, and so does every {@link #pollEvents} call (DiSNI allocates per event poll),
 * which is why the caller paces it.
 */
public final class DisniVerbs implements RdmaVerbs
{
    private static final int LISTEN_BACKLOG = 16;
    private static final int POLL_BATCH = 16;
    private static final byte RETRY_COUNT = 7;
    private static final int DESCRIPTOR_LENGTH = 16;
    private static final int SUCCESS = IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal();
    private static final RdmaCmEvent.EventType[] EVENT_TYPES = RdmaCmEvent.EventType.values();

    private static final long KIND_WRITE = 0;
    private static final long KIND_DESCRIPTOR_RECV = 1;
    private static final long KIND_DESCRIPTOR_SEND = 2;

    private static final int RESOLVING_ADDRESS = 1;
    private static final int RESOLVING_ROUTE = 2;
    private static final int CONNECTING = 3;
    private static final int READY = 4;

    private final int capacity;
    private final int maxInbound;
    private final int sendQueueDepth;
    private final int timeoutMs;

    // scratch: descriptor to send at 0, one receive area per outbound connection after it
    private final UnsafeBuffer scratch;
    private final IbvWC[] completions = new IbvWC[POLL_BATCH];

    private RdmaEventChannel cmChannel;
    private RdmaCmId listenId;
    private IbvPd pd;
    private IbvCompChannel compChannel;
    private IbvCQ cq;
    private IbvMr slotMr;
    private IbvMr sourceMr;
    private IbvMr scratchMr;
    private SVCPollCq pollCompletions;
    private HeartbeatSlot source;
    private InetSocketAddress bindAddress;
    private InetSocketAddress localEndpoint;
    private PortStateFile portState;

    private final RdmaCmId[] ids;
    private final int[] phase;
    private final int[] generation;
    private final boolean[] established;
    private final RemoteSlot[] received;
    private final RemoteSlot[] bound;
    private final SVCPostSend[] unsignalledWrites;
    private final SVCPostSend[] signalledWrites;
    private final SVCPostRecv[] descriptorReceives;

    private final List<RdmaCmId> inbound = new ArrayList<>();
    private final List<SVCPostSend> inboundSends = new ArrayList<>();

    private String lastError = "";

    /**
     * @param capacity       outbound connection ids, [0, capacity).
     * @param maxInbound     inbound connections kept; the oldest is dropped to admit a new one.
     * @param signalInterval one write in this many is signalled; sizes the send queue.
     * @param timeoutMs      rdma_cm address and route resolution timeout.
     */
    public DisniVerbs(final int capacity, final int maxInbound, final int signalInterval, final int timeoutMs)
    {
        if (capacity < 1 || capacity > 0xFFFF)
        {
            throw new IllegalArgumentException("capacity must be in [1, 65535]: " + capacity);
        }
        this.capacity = capacity;
        this.maxInbound = maxInbound;
        this.sendQueueDepth = 2 * signalInterval;
        this.timeoutMs = timeoutMs;
        this.scratch = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            DESCRIPTOR_LENGTH * (capacity + 1), HeartbeatSlotLayout.SLOT_ALIGNMENT));
        ids = new RdmaCmId[capacity];
        phase = new int[capacity];
        generation = new int[capacity];
        established = new boolean[capacity];
        received = new RemoteSlot[capacity];
        bound = new RemoteSlot[capacity];
        unsignalledWrites = new SVCPostSend[capacity];
        signalledWrites = new SVCPostSend[capacity];
        descriptorReceives = new SVCPostRecv[capacity];
        for (int i = 0; i < POLL_BATCH; i++)
        {
            completions[i] = new IbvWC();
        }
    }

    /**
     * {@inheritDoc}
     */
    public RemoteSlot open(final InetSocketAddress bindAddress, final HeartbeatSlot localSlot,
        final HeartbeatSlot sourceSlot) throws IOException
    {
        final String unsupported = RdmaEndpoint.unsupportedByDisniReason(bindAddress);
        if (unsupported != null)
        {
            throw new IOException(unsupported);
        }
        this.bindAddress = bindAddress;
        this.source = sourceSlot;
        try
        {
            cmChannel = RdmaEventChannel.createEventChannel();
            listenId = cmChannel.createId(RdmaCm.RDMA_PS_TCP);
            listenId.bindAddr(bindAddress);
            listenId.listen(LISTEN_BACKLOG);
            final IbvContext context = listenId.getVerbs();
            if (context == null)
            {
                throw new IOException(bindAddress + " is not the address of an RDMA interface (IPoIB or RoCE)");
            }
            pd = context.allocPd();
            compChannel = context.createCompChannel();
            cq = context.createCQ(compChannel, capacity * (sendQueueDepth + 1) + 2 * maxInbound + POLL_BATCH, 0);
            pollCompletions = cq.poll(completions, POLL_BATCH);

            final int slotLength = HeartbeatSlotLayout.SLOT_LENGTH;
            slotMr = register(localSlot.address(), slotLength,
                IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_WRITE);
            sourceMr = register(sourceSlot.address(), slotLength, IbvMr.IBV_ACCESS_LOCAL_WRITE);
            scratchMr = register(scratch.addressOffset(), scratch.capacity(), IbvMr.IBV_ACCESS_LOCAL_WRITE);

            final RemoteSlot descriptor = new RemoteSlot(slotMr.getAddr(), slotMr.getRkey(), slotLength);
            scratch.putLong(0, descriptor.address(), LITTLE_ENDIAN);
            scratch.putInt(8, descriptor.rkey(), LITTLE_ENDIAN);
            scratch.putInt(12, descriptor.length(), LITTLE_ENDIAN);

            final SocketAddress bound = listenId.getSource();
            localEndpoint = bound instanceof InetSocketAddress ? (InetSocketAddress)bound : bindAddress;
            portState = PortStateFile.forAddress(bindAddress.getAddress(), HostFiles.SYS_CLASS_INFINIBAND);
            return descriptor;
        }
        catch (final IOException | RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    private IbvMr register(final long address, final int length, final int access) throws IOException
    {
        return pd.regMr(address, length, access).execute().free().getMr();
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
    public boolean postWrite(final int connection, final RemoteSlot target, final boolean signalled)
    {
        if (phase[connection] != READY)
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
            final int connection = (int)(wrId & 0xFFFF);
            if (kind == KIND_DESCRIPTOR_SEND)
            {
                continue; // the observer's one send; an error only means that emitter went away
            }
            if (connection >= capacity || ids[connection] == null ||
                (int)((wrId >>> 16) & 0xFFFF_FFFFL) != generation[connection])
            {
                continue; // completion of a queue pair already torn down
            }
            final boolean success = wc.getStatus() == SUCCESS;
            if (kind == KIND_WRITE)
            {
                listener.onWriteCompleted(connection, success, success ? null : describe(wc));
            }
            else if (kind == KIND_DESCRIPTOR_RECV)
            {
                onDescriptor(connection, success, wc, listener);
            }
        }
        return polled;
    }

    private void onDescriptor(final int connection, final boolean success, final IbvWC wc, final Listener listener)
    {
        if (!success)
        {
            fail(connection, "descriptor receive completed with " + describe(wc), listener);
            return;
        }
        final int offset = DESCRIPTOR_LENGTH * (connection + 1);
        final long address = scratch.getLong(offset, LITTLE_ENDIAN);
        final int rkey = scratch.getInt(offset + 8, LITTLE_ENDIAN);
        final int length = scratch.getInt(offset + 12, LITTLE_ENDIAN);
        final String invalid = RemoteSlot.invalidReason(address, length);
        if (invalid != null)
        {
            fail(connection, "observer sent a bad slot descriptor: " + invalid, listener);
            return;
        }
        received[connection] = new RemoteSlot(address, rkey, length);
        readyIfComplete(connection, listener);
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
                createQueuePair(id, sendQueueDepth, 1);
                descriptorReceives[connection] = id.getQp().postRecv(descriptorReceive(connection), null);
                descriptorReceives[connection].execute();
                final RdmaConnParam param = new RdmaConnParam();
                param.setRetry_count(RETRY_COUNT);
                param.setRnr_retry_count(RETRY_COUNT);
                id.connect(param);
                phase[connection] = CONNECTING;
            }
            else if (phase[connection] == CONNECTING && is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED))
            {
                established[connection] = true;
                readyIfComplete(connection, listener);
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

    private void readyIfComplete(final int connection, final Listener listener)
    {
        if (!established[connection] || received[connection] == null || phase[connection] == READY)
        {
            return;
        }
        try
        {
            final RdmaCmId id = ids[connection];
            unsignalledWrites[connection] = id.getQp().postSend(writeRequest(connection, false), null);
            signalledWrites[connection] = id.getQp().postSend(writeRequest(connection, true), null);
            bound[connection] = null;
            phase[connection] = READY;
            listener.onEstablished(connection, received[connection]);
        }
        catch (final IOException | RuntimeException ex)
        {
            fail(connection, "building the RDMA WRITE failed: " + ex.getMessage(), listener);
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
            accept(id, listener);
        }
        else if (is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED))
        {
            final int index = inbound.indexOf(id);
            if (index >= 0)
            {
                try
                {
                    inboundSends.get(index).execute();
                }
                catch (final IOException ex)
                {
                    lastError = "sending the slot descriptor failed: " + ex.getMessage();
                }
            }
        }
        else if (is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED) ||
            is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_ERROR) ||
            is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_UNREACHABLE) ||
            is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_DEVICE_REMOVAL))
        {
            final int index = inbound.indexOf(id);
            if (index >= 0)
            {
                releaseInbound(index);
                listener.onInbound(false);
            }
        }
    }

    private void accept(final RdmaCmId id, final Listener listener)
    {
        if (inbound.size() >= maxInbound)
        {
            // the newest emitter is the one a mended ring points at; the oldest is the likeliest to be dead
            releaseInbound(0);
            listener.onInbound(false);
        }
        try
        {
            createQueuePair(id, 2, 1);
            final SVCPostSend send = id.getQp().postSend(descriptorSend(), null);
            final RdmaConnParam param = new RdmaConnParam();
            param.setRetry_count(RETRY_COUNT);
            param.setRnr_retry_count(RETRY_COUNT);
            id.accept(param);
            inbound.add(id);
            inboundSends.add(send);
            listener.onInbound(true);
        }
        catch (final IOException | RuntimeException ex)
        {
            lastError = "accept failed: " + ex.getMessage();
            releaseConnection(id);
        }
    }

    private void createQueuePair(final RdmaCmId id, final int sendDepth, final int receiveDepth) throws IOException
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
        if (id.createQP(pd, attr) == null)
        {
            throw new IOException("rdma_create_qp failed (route uses another device than " + bindAddress + "?)");
        }
    }

    private LinkedList<IbvSendWR> writeRequest(final int connection, final boolean signalled)
    {
        final RemoteSlot target = received[connection];
        final IbvSendWR wr = sendRequest(wrId(KIND_WRITE, connection), source.address(),
            HeartbeatSlotLayout.PAYLOAD_LENGTH, sourceMr.getLkey(), signalled);
        wr.setOpcode(IbvSendWR.IBV_WR_RDMA_WRITE);
        wr.getRdma().setRemote_addr(target.address());
        wr.getRdma().setRkey(target.rkey());
        final LinkedList<IbvSendWR> list = new LinkedList<>();
        list.add(wr);
        return list;
    }

    private LinkedList<IbvSendWR> descriptorSend()
    {
        final IbvSendWR wr = sendRequest(KIND_DESCRIPTOR_SEND << 56, scratch.addressOffset(), DESCRIPTOR_LENGTH,
            scratchMr.getLkey(), false);
        wr.setOpcode(IbvSendWR.IBV_WR_SEND);
        final LinkedList<IbvSendWR> list = new LinkedList<>();
        list.add(wr);
        return list;
    }

    private static IbvSendWR sendRequest(
        final long wrId, final long address, final int length, final int lkey, final boolean signalled)
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
        // inline: the payload is copied into the work request at post time, so the next beat may overwrite the
        // source at once, without waiting for a completion
        wr.setSend_flags(IbvSendWR.IBV_SEND_INLINE | (signalled ? IbvSendWR.IBV_SEND_SIGNALED : 0));
        return wr;
    }

    private LinkedList<IbvRecvWR> descriptorReceive(final int connection)
    {
        final IbvSge sge = new IbvSge();
        sge.setAddr(scratch.addressOffset() + (long)DESCRIPTOR_LENGTH * (connection + 1));
        sge.setLength(DESCRIPTOR_LENGTH);
        sge.setLkey(scratchMr.getLkey());
        final LinkedList<IbvSge> sges = new LinkedList<>();
        sges.add(sge);
        final IbvRecvWR wr = new IbvRecvWR();
        wr.setWr_id(wrId(KIND_DESCRIPTOR_RECV, connection));
        wr.setSg_list(sges);
        wr.setNum_sge(1);
        final LinkedList<IbvRecvWR> list = new LinkedList<>();
        list.add(wr);
        return list;
    }

    private long wrId(final long kind, final int connection)
    {
        return kind << 56 | (generation[connection] & 0xFFFF_FFFFL) << 16 | connection;
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
        if (descriptorReceives[connection] != null)
        {
            descriptorReceives[connection].free();
            descriptorReceives[connection] = null;
        }
        if (ids[connection] != null)
        {
            releaseConnection(ids[connection]);
            ids[connection] = null;
        }
        phase[connection] = 0;
        established[connection] = false;
        received[connection] = null;
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

    private void releaseInbound(final int index)
    {
        inboundSends.remove(index).free();
        releaseConnection(inbound.remove(index));
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
        while (!inbound.isEmpty())
        {
            releaseInbound(inbound.size() - 1);
        }
        if (pollCompletions != null)
        {
            pollCompletions.free();
            pollCompletions = null;
        }
        for (final IbvMr mr : new IbvMr[]{ slotMr, sourceMr, scratchMr })
        {
            if (mr != null)
            {
                quietly(() -> mr.deregMr().execute().free());
            }
        }
        slotMr = null;
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
