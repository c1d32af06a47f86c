package io.ringwatch.transport.aeron.internal;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.exceptions.AeronException;
import io.aeron.logbuffer.FragmentHandler;
import io.ringwatch.core.codec.FrameAuthenticator;
import org.agrona.CloseHelper;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;

/**
 * The control stream over UDP, under a stream id derived from the cluster key, so that a media driver has interest
 * only in frames of that id: an Aeron SETUP or DATA frame from anyone who does not know it is dropped by the driver's
 * receiver after one hash lookup of its stream id, with no pending setup, no image and no log buffer. With the stream
 * id anyone knows (before: {@code ringwatch.control.stream.id}, 1001), every SETUP frame for a new session made the
 * driver create an image, a log buffer file in {@code /dev/shm}, and every DATA frame of a new session a pending
 * setup and a status message back to its source.
 * <p>
 * <b>Derivation.</b> {@code id = first 4 bytes of HMAC-SHA-256(key, "ringwatch control stream v1" || clusterId)}: a
 * keyed PRF, so a stream id says nothing about the key and the ids of two clusters are unrelated. With authentication
 * off there is no key and the id is derived the same way under an all-zero key: it tells clusters apart but anyone
 * can compute it.
 * <p>
 * <b>Rotation.</b> A node subscribes under the id of every key in its keyring and publishes under its primary
 * key's, as it signs with the primary and accepts all: at each step of a rotation (see docs/security.md) every sender's
 * primary is in every receiver's keyring, so every sender's stream is one every receiver has a subscription for.
 * {@link #rekey(int[])} takes the ids of a reloaded keyring from any thread; the agent applies them in its next
 * {@link #poll}: subscriptions added and removed asynchronously, publications re-created under the new primary id.
 * <p>
 * <b>Sessions.</b> Publications keep the session ids Aeron draws at random, so a restarted node's publications are
 * new sessions to its peers' drivers, never its previous life's image (whose session would have to be guessed again
 * by an attacker, 2<sup>-32</sup> a try). Session-specific subscriptions were not used: a driver keeps a
 * {@code NO_INTEREST} entry for every unknown session of a stream it knows, which would let whoever knows the stream
 * id grow that map frame by frame.
 * <p>
 * Agent thread only, except {@link #rekey(int[])} and the static derivations.
 */
public final class ControlStreams implements AutoCloseable
{
    /** The key a cluster with authentication off derives its stream id under: no secret. */
    private static final byte[] NO_KEY = new byte[FrameAuthenticator.KEY_LENGTH];
    private static final byte[] LABEL = "ringwatch control stream v1".getBytes(StandardCharsets.US_ASCII);

    private final Aeron aeron;
    private final String channel;
    private final PeerPublications publications;
    private final int[] streamIds = new int[FrameAuthenticator.MAX_KEYS];
    private final Subscription[] subscriptions = new Subscription[FrameAuthenticator.MAX_KEYS];
    private final long[] pendingRegistrations = new long[FrameAuthenticator.MAX_KEYS];
    private volatile int[] requested;
    private long registrationFailures;

    /**
     * Subscribe under every id now, blocking until the driver has each: for start-up only.
     *
     * @param aeron        client.
     * @param channel      this node's control channel.
     * @param streamIds    ids to subscribe under, the primary key's first.
     * @param publications this node's control publications, already under {@code streamIds[0]}.
     */
    public ControlStreams(
        final Aeron aeron, final String channel, final int[] streamIds, final PeerPublications publications)
    {
        this.aeron = aeron;
        this.channel = channel;
        this.publications = publications;
        try
        {
            for (int i = 0; i < streamIds.length; i++)
            {
                this.streamIds[i] = streamIds[i];
                subscriptions[i] = aeron.addSubscription(channel, streamIds[i]);
            }
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(subscriptions);
            throw ex;
        }
    }

    /**
     * @param keys      the keyring, primary first; empty with authentication off.
     * @param clusterId the cluster's id.
     * @return the control stream ids to subscribe under, the primary's first, without repeats.
     */
    public static int[] streamIds(final List<byte[]> keys, final int clusterId)
    {
        if (keys.isEmpty())
        {
            return new int[] {streamId(NO_KEY, clusterId)};
        }
        final int[] ids = new int[keys.size()];
        int count = 0;
        for (final byte[] key : keys)
        {
            final int id = streamId(key, clusterId);
            boolean seen = false;
            for (int i = 0; i < count; i++)
            {
                seen |= ids[i] == id;
            }
            if (!seen)
            {
                ids[count++] = id;
            }
        }
        return Arrays.copyOf(ids, count);
    }

    /**
     * @param key       a cluster key.
     * @param clusterId the cluster's id.
     * @return the control stream id frames signed with {@code key} travel under.
     */
    public static int streamId(final byte[] key, final int clusterId)
    {
        try
        {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(LABEL);
            mac.update(ByteBuffer.allocate(Integer.BYTES).putInt(0, clusterId));
            return ByteBuffer.wrap(mac.doFinal()).getInt(0);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HmacSHA256 unavailable", ex);
        }
    }

    /**
     * Take the stream ids of a reloaded keyring; applied by the agent in its next {@link #poll}. Any thread.
     *
     * @param ids as {@link #streamIds(List, int)} gives them, the primary's first.
     */
    public void rekey(final int[] ids)
    {
        if (ids.length == 0 || ids.length > FrameAuthenticator.MAX_KEYS)
        {
            throw new IllegalArgumentException("1 to " + FrameAuthenticator.MAX_KEYS + " stream ids: " + ids.length);
        }
        requested = ids.clone();
    }

    /**
     * Poll every control subscription, after applying a pending {@link #rekey(int[])}.
     *
     * @param handler       the agent's frame handler.
     * @param fragmentLimit per subscription.
     * @return fragments handed over.
     */
    public int poll(final FragmentHandler handler, final int fragmentLimit)
    {
        int work = 0;
        final int[] ids = requested;
        if (ids != null)
        {
            requested = null;
            apply(ids);
            work++;
        }
        for (int i = 0; i < subscriptions.length; i++)
        {
            final Subscription subscription = subscriptions[i];
            if (subscription != null)
            {
                work += subscription.poll(handler, fragmentLimit);
            }
            else if (pendingRegistrations[i] != 0)
            {
                resolve(i);
            }
        }
        return work;
    }

    private void apply(final int[] ids)
    {
        for (int i = 0; i < streamIds.length; i++)
        {
            if ((subscriptions[i] != null || pendingRegistrations[i] != 0) && indexOf(ids, streamIds[i]) < 0)
            {
                aeron.asyncRemoveSubscription(subscriptions[i] != null ?
                    subscriptions[i].registrationId() : pendingRegistrations[i]);
                subscriptions[i] = null;
                pendingRegistrations[i] = 0;
            }
        }
        for (final int id : ids)
        {
            if (slotOf(id) < 0)
            {
                final int free = freeSlot();
                streamIds[free] = id;
                pendingRegistrations[free] = aeron.asyncAddSubscription(channel, id);
            }
        }
        publications.retarget(ids[0]);
    }

    private void resolve(final int slot)
    {
        try
        {
            final Subscription ready = aeron.getSubscription(pendingRegistrations[slot]);
            if (ready != null)
            {
                subscriptions[slot] = ready;
                pendingRegistrations[slot] = 0;
            }
        }
        catch (final AeronException ex)
        {
            registrationFailures++;
            pendingRegistrations[slot] = aeron.asyncAddSubscription(channel, streamIds[slot]);
        }
    }

    private int slotOf(final int id)
    {
        for (int i = 0; i < streamIds.length; i++)
        {
            if ((subscriptions[i] != null || pendingRegistrations[i] != 0) && streamIds[i] == id)
            {
                return i;
            }
        }
        return -1;
    }

    private int freeSlot()
    {
        for (int i = 0; i < streamIds.length; i++)
        {
            if (subscriptions[i] == null && pendingRegistrations[i] == 0)
            {
                return i;
            }
        }
        throw new IllegalStateException("more than " + FrameAuthenticator.MAX_KEYS + " control streams");
    }

    private static int indexOf(final int[] ids, final int id)
    {
        for (int i = 0; i < ids.length; i++)
        {
            if (ids[i] == id)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @return the stream ids subscribed to or being subscribed to, in slot order.
     */
    public int[] subscribedStreamIds()
    {
        int count = 0;
        final int[] ids = new int[streamIds.length];
        for (int i = 0; i < streamIds.length; i++)
        {
            if (subscriptions[i] != null || pendingRegistrations[i] != 0)
            {
                ids[count++] = streamIds[i];
            }
        }
        return Arrays.copyOf(ids, count);
    }

    /**
     * @return subscription registrations the driver refused after a rekey (each retried).
     */
    public long registrationFailures()
    {
        return registrationFailures;
    }

    public void close()
    {
        CloseHelper.closeAll(subscriptions);
    }
}
