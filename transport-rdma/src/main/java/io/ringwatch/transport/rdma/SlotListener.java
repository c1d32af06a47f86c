package io.ringwatch.transport.rdma;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import io.ringwatch.core.slot.HeartbeatSlotLayout;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Observer side: the registered heartbeat slot and the RDMA CM listener emitters connect to. The slot's
 * memory region grants remote write; every accepted queue pair is created on the slot's protection domain,
 * which is what makes the slot's rkey valid for it. Accepted queue pairs never post anything: the emitter's
 * NIC writes, this side only reads memory.
 */
final class SlotListener implements AutoCloseable
{
    private static final int LISTEN_BACKLOG = 16;

    private final UnsafeBuffer slotBuffer = HeartbeatSlot.allocateAligned();
    private final HeartbeatSlot slot = new HeartbeatSlot().wrap(slotBuffer, 0).reset();
    private final int maxInbound;
    private final List<RdmaCmId> inbound = new ArrayList<>();

    private RdmaEventChannel cmChannel;
    private RdmaCmId listenId;
    private IbvPd pd;
    private IbvCompChannel compChannel;
    private IbvCQ cq;
    private IbvMr slotMr;
    private RemoteSlot localSlot;
    private InetSocketAddress localEndpoint;

    private long accepted;
    private long evicted;
    private long disconnected;
    private long acceptFailures;
    private String lastFailure = "";

    SlotListener(final InetSocketAddress bindAddress, final int maxInbound) throws IOException
    {
        this.maxInbound = maxInbound;
        try
        {
            cmChannel = RdmaEventChannel.createEventChannel();
            listenId = cmChannel.createId(RdmaCm.RDMA_PS_TCP);
            listenId.bindAddr(bindAddress);
            listenId.listen(LISTEN_BACKLOG);

            final IbvContext context = listenId.getVerbs();
            if (context == null)
            {
                throw new IOException("bind address " + bindAddress + " is not on an RDMA device");
            }
            pd = context.allocPd();
            compChannel = context.createCompChannel();
            cq = context.createCQ(compChannel, 2 * maxInbound + 2, 0);

            final int access = IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_WRITE;
            slotMr = pd.regMr(slot.address(), HeartbeatSlotLayout.SLOT_LENGTH, access).execute().free().getMr();
            localSlot = new RemoteSlot(slotMr.getAddr(), slotMr.getRkey(), HeartbeatSlotLayout.SLOT_LENGTH);

            final SocketAddress source = listenId.getSource();
            localEndpoint = source instanceof InetSocketAddress ? (InetSocketAddress)source : bindAddress;
        }
        catch (final IOException | RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    HeartbeatSlot slot()
    {
        return slot;
    }

    RemoteSlot localSlot()
    {
        return localSlot;
    }

    InetSocketAddress localEndpoint()
    {
        return localEndpoint;
    }

    /**
     * Handle at most one connection-manager event. DiSNI allocates on every event poll, so the caller
     * paces this (fast while a connection is expected, slowly otherwise).
     *
     * @return 1 if an event was handled, else 0.
     */
    int pollConnectionEvents()
    {
        final RdmaCmEvent event;
        try
        {
            event = cmChannel.getCmEvent(0);
        }
        catch (final IOException ex)
        {
            lastFailure = "listener CM event poll failed: " + ex.getMessage();
            return 0;
        }
        if (event == null)
        {
            return 0;
        }

        final int type = event.getEvent();
        final RdmaCmId id = event.getConnIdPriv();
        if (Verbs.is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_REQUEST))
        {
            accept(id);
        }
        else if (Verbs.is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED) ||
            Verbs.is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_TIMEWAIT_EXIT) ||
            Verbs.is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_ERROR) ||
            Verbs.is(type, RdmaCmEvent.EventType.RDMA_CM_EVENT_UNREACHABLE))
        {
            if (inbound.remove(id))
            {
                disconnected++;
                Verbs.releaseConnection(id);
            }
        }
        return 1;
    }

    private void accept(final RdmaCmId id)
    {
        if (id == null)
        {
            return;
        }
        if (inbound.size() >= maxInbound)
        {
            // the newest emitter is the one the mended ring points at; the oldest is most likely dead
            evicted++;
            Verbs.releaseConnection(inbound.remove(0));
        }
        try
        {
            final IbvQPInitAttr attr = new IbvQPInitAttr();
            attr.setQp_type(IbvQP.IBV_QPT_RC);
            attr.setSend_cq(cq);
            attr.setRecv_cq(cq);
            attr.cap().setMax_send_wr(1);
            attr.cap().setMax_recv_wr(1);
            attr.cap().setMax_send_sge(1);
            attr.cap().setMax_recv_sge(1);
            id.createQP(pd, attr);

            final RdmaConnParam param = new RdmaConnParam();
            param.setRetry_count((byte)7);
            id.accept(param);
            inbound.add(id);
            accepted++;
        }
        catch (final IOException | RuntimeException ex)
        {
            acceptFailures++;
            lastFailure = "accept failed: " + ex.getMessage();
            Verbs.releaseConnection(id);
        }
    }

    long accepted()
    {
        return accepted;
    }

    long evicted()
    {
        return evicted;
    }

    long disconnected()
    {
        return disconnected;
    }

    long acceptFailures()
    {
        return acceptFailures;
    }

    int inboundConnections()
    {
        return inbound.size();
    }

    String lastFailure()
    {
        return lastFailure;
    }

    public void close()
    {
        for (final RdmaCmId id : inbound)
        {
            Verbs.releaseConnection(id);
        }
        inbound.clear();
        Verbs.releaseQuietly(slotMr, cq, compChannel, pd);
        slotMr = null;
        cq = null;
        compChannel = null;
        pd = null;
        if (listenId != null)
        {
            Verbs.quietly(listenId::destroyId);
            listenId = null;
        }
        if (cmChannel != null)
        {
            Verbs.quietly(cmChannel::destroyEventChannel);
            cmChannel = null;
        }
    }
}
