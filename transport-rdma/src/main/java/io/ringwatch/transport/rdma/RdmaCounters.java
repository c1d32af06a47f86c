package io.ringwatch.transport.rdma;

/**
 * What {@link RdmaHeartbeats} counts, read by the runtime's counters and by tests. Written on the agent thread only;
 * plain fields, read from that thread (the runtime copies them into its counters there).
 */
public final class RdmaCounters
{
    long beatsPosted;
    long beatsDroppedNotConnected;
    long beatsDroppedQueueFull;
    long postFailures;
    long completionsReaped;
    long completionErrors;
    long connectAttempts;
    long connectionsEstablished;
    long connectFailures;
    long disconnects;
    long connectTimeTotalNs;
    long connectTimeMaxNs;
    long mendsOntoPreConnected;
    long mendsAwaitingConnection;
    long descriptorsRejected;
    long descriptorsReplaced;
    long inboundAccepted;
    long inboundClosed;
    long inboundRefused;
    long inboundEvicted;
    long handshakesRefused;
    long handshakeTimeouts;
    long grantsRevoked;
    long localPortDowns;
    String lastError = "";

    void error(final String reason)
    {
        lastError = reason;
    }

    /**
     * @return RDMA WRITEs posted.
     */
    public long beatsPosted()
    {
        return beatsPosted;
    }

    /**
     * @return beats not posted because the connection to the observer was not up.
     */
    public long beatsDroppedNotConnected()
    {
        return beatsDroppedNotConnected;
    }

    /**
     * @return beats not posted because the send queue was full (signalled completions not arriving).
     */
    public long beatsDroppedQueueFull()
    {
        return beatsDroppedQueueFull;
    }

    /**
     * @return posts the queue pair refused (each tears the connection down for a retry).
     */
    public long postFailures()
    {
        return postFailures;
    }

    /**
     * @return signalled writes that completed successfully.
     */
    public long completionsReaped()
    {
        return completionsReaped;
    }

    /**
     * @return writes that completed with an error status (each tears the connection down for a retry).
     */
    public long completionErrors()
    {
        return completionErrors;
    }

    /**
     * @return outbound connection attempts.
     */
    public long connectAttempts()
    {
        return connectAttempts;
    }

    /**
     * @return outbound connections established: handshake done, the observer's grant held.
     */
    public long connectionsEstablished()
    {
        return connectionsEstablished;
    }

    /**
     * @return outbound attempts that failed, timed out or whose handshake was refused.
     */
    public long connectFailures()
    {
        return connectFailures;
    }

    /**
     * @return established connections lost (peer gone, fabric or device event).
     */
    public long disconnects()
    {
        return disconnects;
    }

    /**
     * @return sum of connect times (attempt to grant) over {@link #connectionsEstablished()}: what a mending onto a
     * pre-connected observer does not wait for.
     */
    public long connectTimeTotalNs()
    {
        return connectTimeTotalNs;
    }

    /**
     * @return longest connect time seen.
     */
    public long connectTimeMaxNs()
    {
        return connectTimeMaxNs;
    }

    /**
     * @return NEW_OBSERVER frames whose observer was already connected: mended without waiting for rdma_cm.
     */
    public long mendsOntoPreConnected()
    {
        return mendsOntoPreConnected;
    }

    /**
     * @return NEW_OBSERVER frames whose observer was not connected yet: beats wait for rdma_cm.
     */
    public long mendsAwaitingConnection()
    {
        return mendsAwaitingConnection;
    }

    /**
     * @return NEW_OBSERVER descriptors rejected as invalid.
     */
    public long descriptorsRejected()
    {
        return descriptorsRejected;
    }

    /**
     * @return NEW_OBSERVER frames naming another slot than the connection's grant: the connection is made again.
     */
    public long descriptorsReplaced()
    {
        return descriptorsReplaced;
    }

    /**
     * @return inbound connections granted the slot (emitters that proved the key and were expected).
     */
    public long inboundAccepted()
    {
        return inboundAccepted;
    }

    /**
     * @return granted inbound connections closed, by the peer, the fabric, or this node.
     */
    public long inboundClosed()
    {
        return inboundClosed;
    }

    /**
     * @return connect requests refused at once: every inbound place taken by a connection this node keeps.
     */
    public long inboundRefused()
    {
        return inboundRefused;
    }

    /**
     * @return unauthenticated inbound connections closed to make room for a newer request.
     */
    public long inboundEvicted()
    {
        return inboundEvicted;
    }

    /**
     * @return handshakes refused, either side: bad MAC, another cluster or run, a stale nonce (a replay), an
     * unexpected rank or message, an older incarnation. {@link #lastError()} names the latest.
     */
    public long handshakesRefused()
    {
        return handshakesRefused;
    }

    /**
     * @return inbound connections closed because their handshake did not finish within the connect timeout.
     */
    public long handshakeTimeouts()
    {
        return handshakeTimeouts;
    }

    /**
     * @return granted connections closed because their writer is no longer one this node expects (dead, or no
     * longer among its nearest predecessors) or was replaced: the rkey dies with the connection.
     */
    public long grantsRevoked()
    {
        return grantsRevoked;
    }

    /**
     * @return times the local port was seen going down.
     */
    public long localPortDowns()
    {
        return localPortDowns;
    }

    /**
     * @return the most recent failure, for logs; empty if none.
     */
    public String lastError()
    {
        return lastError;
    }
}
