package io.ringwatch.transport.aeron.internal;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.exceptions.AeronException;
import org.agrona.CloseHelper;

/**
 * One publication per peer rank for one kind of traffic. The usual peers are added at start, so a notice or
 * heartbeat to them never waits for a handshake; any other peer gets its publication on first use, registered
 * asynchronously so the duty cycle never blocks on the driver. Until it is ready, {@link #get(int)} returns null and
 * the caller queues or drops.
 */
public final class PeerPublications implements AutoCloseable
{
    private final Aeron aeron;
    private final String[] channels;
    private final int[] streamIds;
    private final Publication[] publications;
    private final long[] pendingRegistrations;
    private long registrationFailures;

    /**
     * @param aeron     client.
     * @param channels  channel per rank.
     * @param streamIds stream id per rank.
     */
    public PeerPublications(final Aeron aeron, final String[] channels, final int[] streamIds)
    {
        this.aeron = aeron;
        this.channels = channels;
        this.streamIds = streamIds;
        this.publications = new Publication[channels.length];
        this.pendingRegistrations = new long[channels.length];
    }

    /**
     * Add a publication now, blocking until the driver has it; for start-up only.
     *
     * @param rank peer.
     */
    public void preCreate(final int rank)
    {
        if (publications[rank] == null)
        {
            publications[rank] = aeron.addPublication(channels[rank], streamIds[rank]);
        }
    }

    /**
     * @param rank peer.
     * @return its publication, or null while it is being registered.
     */
    public Publication get(final int rank)
    {
        final Publication publication = publications[rank];
        if (publication != null)
        {
            return publication;
        }

        final long registrationId = pendingRegistrations[rank];
        if (registrationId == 0)
        {
            pendingRegistrations[rank] = aeron.asyncAddPublication(channels[rank], streamIds[rank]);
            return null;
        }

        try
        {
            final Publication ready = aeron.getPublication(registrationId);
            if (ready != null)
            {
                publications[rank] = ready;
                pendingRegistrations[rank] = 0;
            }
            return ready;
        }
        catch (final AeronException ex)
        {
            // the driver refused (e.g. unresolvable host); try again on the next send rather than fail the node
            registrationFailures++;
            pendingRegistrations[rank] = 0;
            return null;
        }
    }

    /**
     * Move every peer to {@code streamId} (UDP control, after the primary key changed): each publication made so far
     * is removed (the driver still sends what it holds) and re-registered asynchronously under the new id; until it
     * is ready {@link #get(int)} returns null and frames wait in the caller's queue. Agent thread only.
     *
     * @param streamId the new stream id of every peer.
     */
    public void retarget(final int streamId)
    {
        for (int rank = 0; rank < channels.length; rank++)
        {
            if (streamIds[rank] == streamId)
            {
                continue;
            }
            streamIds[rank] = streamId;
            final boolean inUse = publications[rank] != null || pendingRegistrations[rank] != 0;
            if (publications[rank] != null)
            {
                aeron.asyncRemovePublication(publications[rank].registrationId());
                publications[rank] = null;
            }
            else if (pendingRegistrations[rank] != 0)
            {
                aeron.asyncRemovePublication(pendingRegistrations[rank]);
            }
            pendingRegistrations[rank] = inUse ? aeron.asyncAddPublication(channels[rank], streamId) : 0;
        }
    }

    /**
     * @return true when every publication made so far has a connected subscriber.
     */
    public boolean allConnected()
    {
        for (final Publication publication : publications)
        {
            if (publication != null && !publication.isConnected())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return asynchronous registrations the driver refused.
     */
    public long registrationFailures()
    {
        return registrationFailures;
    }

    /**
     * @param rank peer.
     * @return the channel used for that peer.
     */
    public String channel(final int rank)
    {
        return channels[rank];
    }

    public void close()
    {
        CloseHelper.closeAll(publications);
    }
}
