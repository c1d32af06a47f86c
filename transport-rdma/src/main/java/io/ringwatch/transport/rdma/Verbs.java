package io.ringwatch.transport.rdma;

import com.ibm.disni.verbs.RdmaCmEvent;

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
}
