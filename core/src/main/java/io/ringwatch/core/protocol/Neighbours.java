package io.ringwatch.core.protocol;

import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.RankArray;

/**
 * T4 and the ring's repairs: whom this node watches and who watches it, kept right as the view changes. A dead
 * emitter is replaced by FindEmitter's next live predecessor, which is told with NEW_OBSERVER; a dead observer by the
 * next live successor, beaten at once; a NEW_OBSERVER is taken only from the nearest live successor in this view
 * ({@link ObserverOffer} holds a farther one's offer until the deaths between make it the nearest). Part of one
 * {@link DetectorNode}, driven by its thread alone; allocation free.
 */
final class Neighbours
{
    private final Shared shared;
    private final Admission admission;
    private final ProbeSession probes;
    private final ViewRepair viewRepair;
    private final HeartbeatChannel heartbeats;
    private final ObserverOffer offer = new ObserverOffer();

    Neighbours(
        final Shared shared,
        final Admission admission,
        final ProbeSession probes,
        final ViewRepair viewRepair,
        final HeartbeatChannel heartbeats)
    {
        this.shared = shared;
        this.admission = admission;
        this.probes = probes;
        this.viewRepair = viewRepair;
        this.heartbeats = heartbeats;
    }

    /**
     * T4: NEW_OBSERVER, {@code fromRank} offers to watch this node; the slot descriptor (RDMA; zeros otherwise) goes to
     * the heartbeat channel once the offer is taken. A joiner takes it on trust (only a node that knows of its join
     * sends one, and it is what lets the joiner beat) and checks it against the view when that comes.
     */
    void onNewObserver(
        final int fromRank,
        final long fromIncarnation,
        final int emitterRank,
        final int rkey,
        final long address,
        final int length,
        final long nowNs)
    {
        if (emitterRank != shared.rank)
        {
            shared.counters.increment(ProtocolCounter.MISADDRESSED);
            return;
        }
        if (shared.view.joining())
        {
            offeredToJoiner(fromRank, fromIncarnation, rkey, address, length, nowNs);
            return;
        }
        if (!admission.admit(fromRank, fromIncarnation, nowNs) || fromRank == shared.rank || skipsJoiner(fromRank))
        {
            return;
        }
        if (fromRank != shared.ring.successor())
        {
            if (!offer.isFrom(fromRank))
            {
                // its view holds the ranks between dead: ask for it, in case their notices were lost on the way here
                // (ViewRepair answers a differing digest with the view). A replayed offer's sender differs on nothing.
                viewRepair.askForView(fromRank, shared.dead, shared.membership.incarnations(), shared.control);
            }
            offer.hold(fromRank, fromIncarnation, rkey, address, length);
            shared.counters.increment(ProtocolCounter.NEW_OBSERVER_DEFERRED);
            return;
        }
        take(fromRank, rkey, address, length, nowNs);
    }

    private void offeredToJoiner(
        final int fromRank,
        final long fromIncarnation,
        final int rkey,
        final long address,
        final int length,
        final long nowNs)
    {
        if (!shared.ring.isRank(fromRank) || fromRank == shared.rank ||
            shared.membership.isStale(fromRank, fromIncarnation))
        {
            return;
        }
        final int observer = shared.observation.observer();
        if (observer != shared.rank &&
            shared.ring.distanceAhead(fromRank) > shared.ring.distanceAhead(observer))
        {
            // a nearer successor adopted this node already: the farther one has not learned of the joins between
            // (as skipsJoiner, for a node that does not know its view yet) and takes a nearer emitter once it has
            shared.counters.increment(ProtocolCounter.NEW_OBSERVER_REFUSED);
            return;
        }
        if (observer == shared.rank)
        {
            shared.observation.beatsDueFrom(nowNs);
        }
        take(fromRank, rkey, address, length, nowNs);
        offer.hold(fromRank, fromIncarnation, rkey, address, length);
    }

    /**
     * A NEW_OBSERVER from a farther successor than a rank this node knows rejoined comes from a node that has not
     * heard of the JOIN yet: taking it as observer would leave the joiner unwatched and unfed. The sender learns the
     * JOIN within a broadcast and takes the joiner as its emitter instead.
     */
    private boolean skipsJoiner(final int fromRank)
    {
        final int nearer = shared.ring.successor();
        if (nearer != fromRank && nearer != shared.rank && shared.membership.incarnationOf(nearer) > 0)
        {
            shared.counters.increment(ProtocolCounter.NEW_OBSERVER_REFUSED);
            return true;
        }
        return false;
    }

    private void take(final int observer, final int rkey, final long address, final int length, final long nowNs)
    {
        if (offer.isFrom(observer))
        {
            offer.clear();
        }
        if (!heartbeats.acceptObserver(observer, rkey, address, length, nowNs))
        {
            shared.counters.increment(ProtocolCounter.NEW_OBSERVER_REFUSED);
            return;
        }
        shared.observation.observedBy(observer, nowNs);
    }

    /**
     * The view changed: a held offer is taken once the deaths between have made its sender the nearest live
     * successor, and dropped once its sender's life is dead or replaced in the view.
     */
    private void takeHeldOffer(final long nowNs)
    {
        final int offered = offer.rank();
        if (offered < 0)
        {
            return;
        }
        if (shared.dead.contains(offered) || shared.membership.isStale(offered, offer.incarnation()))
        {
            offer.clear();
        }
        else if (offer.isFrom(shared.ring.successor()))
        {
            take(offered, offer.rkey(), offer.address(), offer.length(), nowNs);
        }
    }

    /**
     * A joiner's view came: watch its nearest live predecessor, beat the view's nearest live successor unless the
     * observer taken while joining is that one, and ask the predecessor to adopt this node.
     */
    void joinerViewTaken(final long nowNs)
    {
        shared.observation.newEmitter(shared.ring.predecessor(), nowNs);
        if (shared.observation.observer() == shared.rank)
        {
            shared.observation.neighbours(shared.observation.emitter(), shared.ring.successor());
        }
        else if (shared.observation.observer() != shared.ring.successor())
        {
            // the observer taken while joining is not the view's nearest live successor (a replayed NEW_OBSERVER, or
            // one whose sender held dead a rank this view holds alive): beat the view's one, hold the other's offer
            shared.counters.increment(ProtocolCounter.NEW_OBSERVER_DEFERRED);
            shared.observation.neighbours(shared.observation.emitter(), shared.ring.successor());
            shared.membership.observerWithdrawn();
        }
        if (!offer.isFrom(shared.observation.observer()))
        {
            takeHeldOffer(nowNs);
        }
        else
        {
            offer.clear();
        }
        shared.membership.viewReceived(nowNs);
        if (shared.observation.emitter() != shared.rank)
        {
            // the predecessor adopts this node when the JOIN reaches it; this covers a predecessor that learned of
            // this node only from a view of its own (a joiner too); one not told yet fences the incarnation it holds
            // dead, which this one ignores
            shared.control.sendNewObserver(shared.observation.emitter());
        }
    }

    /**
     * Deaths were added to D: replace a dead emitter (FindEmitter) or observer, and take a held offer they unblocked.
     */
    void afterDeaths(final long nowNs)
    {
        if (shared.dead.contains(shared.observation.emitter()))
        {
            probes.cancel();
            shared.observation.newEmitter(shared.ring.findEmitter(shared.observation.emitter()), nowNs);
            if (shared.observation.emitter() != shared.rank)
            {
                shared.control.sendNewObserver(shared.observation.emitter());
            }
        }
        if (shared.dead.contains(shared.observation.observer()))
        {
            // Our observer is gone: the next live successor will adopt us; heartbeat it now so its grace is short.
            shared.observation.observerLost(shared.ring.findObserver(shared.observation.observer()), nowNs);
        }
        takeHeldOffer(nowNs);
    }

    /**
     * The joiner's successor takes it as emitter (NEW_OBSERVER, and 2δ before it may suspect it, as for any new
     * emitter); its predecessor takes it as observer and beats at once.
     */
    void joinerAdmitted(final int joiner, final long nowNs)
    {
        if (shared.ring.predecessor() == joiner)
        {
            shared.observation.newEmitter(joiner, nowNs);
            shared.control.sendNewObserver(joiner);
        }
        if (shared.ring.successor() == joiner)
        {
            // the joiner knows this node alive: its contact's view said so, or it would not be joining after it
            shared.observation.observedBy(joiner, nowNs);
        }
    }
}
