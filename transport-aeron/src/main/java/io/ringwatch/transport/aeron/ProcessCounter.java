package io.ringwatch.transport.aeron;

/**
 * The counters a daemon with a process level ({@code node --procs-per-node K | --job FILE}) publishes beside its
 * {@link NodeCounter}s, in the same key layout {clusterId int32, rank int32, detail int32 = -1} and the same type id
 * range, from {@link NodeCounter#TYPE_ID_BASE} + 80, so {@code AeronStat} and {@code ringwatch stat} show them.
 */
public enum ProcessCounter
{
    /** Local processes launched or attached and neither dead nor departed. */
    LOCAL_ALIVE(80, "local processes alive"),
    /** Local processes that died: a failure exit, or beats that stopped for longer than the watchdog timeout. */
    LOCAL_DEAD(81, "local processes dead"),
    /** Local processes that said they finished, then exited with 0 (or went quiet): departures, not failures. */
    LOCAL_DEPARTED(82, "local processes departed"),
    /** PROCESS_FAILURE broadcasts this daemon started for its own processes. */
    PROCESS_NOTICES_SENT(83, "process notices sent"),
    /** PROCESS_FAILURE copies received from other daemons (duplicates and refused ones included). */
    PROCESS_NOTICES_RECEIVED(84, "process notices received"),
    /** PROCESS_FAILURE copies this daemon forwarded along the broadcast schedule. */
    PROCESS_NOTICES_FORWARDED(85, "process notices forwarded"),
    /** Failures pushed to the local processes on the IPC stream (one message for all of them per failure). */
    LOCAL_NOTIFICATIONS_PUSHED(86, "local notifications pushed"),
    /** Pushes the stream did not take (no process subscribed yet, or back pressure): found in the view instead. */
    LOCAL_NOTIFICATIONS_DROPPED(87, "local notifications dropped");

    private final int typeId;
    private final String label;

    ProcessCounter(final int offset, final String label)
    {
        this.typeId = NodeCounter.TYPE_ID_BASE + offset;
        this.label = label;
    }

    /**
     * @return the counter's type id.
     */
    public int typeId()
    {
        return typeId;
    }

    /**
     * @return the counter's label stem.
     */
    public String label()
    {
        return label;
    }
}
