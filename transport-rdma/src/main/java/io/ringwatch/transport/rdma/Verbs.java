package io.ringwatch.transport.rdma;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;

/**
 * Small helpers around DiSNI's verbs API.
 */
final class Verbs
{
    private static final RdmaCmEvent.EventType[] EVENT_TYPES = RdmaCmEvent.EventType.values();

    private Verbs()
    {
    }

    /**
     * @param event value of {@link RdmaCmEvent#getEvent()}.
     * @return the event's name, e.g. {@code RDMA_CM_EVENT_ESTABLISHED}.
     */
    static String eventName(final int event)
    {
        return event >= 0 && event < EVENT_TYPES.length ? EVENT_TYPES[event].name() : "RDMA_CM_EVENT_" + event;
    }

    static boolean is(final int event, final RdmaCmEvent.EventType type)
    {
        return event == type.ordinal();
    }

    /**
     * Cleanup that must keep going after a step fails, so one broken verbs object does not leak the rest.
     */
    interface Step
    {
        void run() throws Exception;
    }

    static void quietly(final Step step)
    {
        try
        {
            step.run();
        }
        catch (final Exception ignore)
        {
            // best-effort release of verbs resources; the device may already have torn them down
        }
    }

    /**
     * Disconnect a connection and destroy its queue pair (if it got one) and its id, each step best effort.
     *
     * @param id connection to release.
     */
    static void releaseConnection(final RdmaCmId id)
    {
        quietly(id::disconnect);
        if (id.getQp() != null)
        {
            quietly(id::destroyQP);
        }
        quietly(id::destroyId);
    }

    /**
     * Release what an endpoint registered, users before what they depend on: memory region, completion queue,
     * completion channel, protection domain. Any of them may be null (setup failed before creating it).
     */
    static void releaseQuietly(final IbvMr mr, final IbvCQ cq, final IbvCompChannel compChannel, final IbvPd pd)
    {
        if (mr != null)
        {
            quietly(() -> mr.deregMr().execute().free());
        }
        if (cq != null)
        {
            quietly(cq::destroyCQ);
        }
        if (compChannel != null)
        {
            quietly(compChannel::destroyCompChannel);
        }
        if (pd != null)
        {
            quietly(pd::deallocPd);
        }
    }
}
