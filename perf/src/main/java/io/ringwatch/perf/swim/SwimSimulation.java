package io.ringwatch.perf.swim;

import io.ringwatch.core.sim.DelayModel;
import io.ringwatch.core.sim.EventQueue;

import java.util.SplittableRandom;

/**
 * A SWIM failure detector (Das et al. 2002, with memberlist's Lifeguard suspicion timeouts) over the ring
 * simulator's engine: the same {@link EventQueue} and the same {@link DelayModel}, so both detectors see the
 * same network.
 * <p>
 * Modelled: a probe per protocol period in a shuffled round-robin order (memberlist walks a shuffled member list;
 * here each pass uses a fresh random affine permutation of the ranks, which visits every member once per pass
 * with O(1) memory per node); direct ping and ack; after the probe timeout, ping-req to k random members who
 * ping on the prober's behalf and relay the ack; no ack by the end of the period makes the prober suspect the
 * target; suspicion timeouts shrink from the Lifeguard ceiling to its floor with independent confirmations;
 * a suspected or declared-dead live node refutes by raising its incarnation; every update is piggybacked on
 * pings, acks and ping-reqs and gossiped to a few random members while it has transmissions left
 * (RetransmitMult·⌈log₁₀(n+1)⌉).
 * Not modelled: TCP fallback pings, push-pull state sync, Lifeguard's local-health probe back-off, nacks, joins.
 * <p>
 * Single use: construct, {@link #run()}.
 */
public final class SwimSimulation
{
    private static final byte TICK = 20;
    private static final byte PROBE_TIMEOUT = 21;
    private static final byte PERIOD_END = 22;
    private static final byte SUSPICION_TIMER = 23;
    private static final byte GOSSIP_TICK = 24;
    private static final byte PING = 25;
    private static final byte ACK = 26;
    private static final byte PING_REQ = 27;
    private static final byte GOSSIP = 28;
    private static final byte CRASH = 29;

    private final SwimConfig config;
    private final int n;
    private final DelayModel delays;
    private final SplittableRandom random;
    private final long seed;
    private final EventQueue queue;
    private final int retransmitLimit;
    private final int maxConfirmations;
    private final long endCapNs;

    private final boolean[] crashed;
    private final int[] incarnation;
    private final long[] permA;
    private final long[] permB;
    private final int[] permIndex;
    private final int[] probeSeq;
    private final int[] probeTarget;
    private final boolean[] probeAcked;
    private final boolean[] gossipActive;
    private final MemberTable[] tables;
    private final Broadcasts[] outbox;

    private final int[] crashRanks;
    private final long[] crashTimes;
    private final long[] firstSuspect;
    private final long[] firstDead;
    private final long[] allDead;
    private final int[] knownDead;
    private int crashesDone;
    private int liveCount;

    private long nowNs;
    private long falseSuspicions;
    private long falseDeaths;
    private long refutations;
    private long messages;

    /**
     * @param config       the SWIM parameters.
     * @param n            nodes.
     * @param delays       network delays, shared with the ring simulations.
     * @param crashes      nodes to crash (distinct random ranks).
     * @param firstCrashNs time of the first crash.
     * @param windowNs     the other crashes strike uniformly within this long after the first.
     * @param endCapNs     the run stops here at the latest.
     * @param seed         the only source of randomness.
     */
    public SwimSimulation(
        final SwimConfig config,
        final int n,
        final DelayModel delays,
        final int crashes,
        final long firstCrashNs,
        final long windowNs,
        final long endCapNs,
        final long seed)
    {
        if (n < 3 || crashes < 0 || crashes >= n - 1)
        {
            throw new IllegalArgumentException("need n >= 3 and 0 <= crashes < n - 1: n=" + n + " crashes=" + crashes);
        }
        this.config = config;
        this.n = n;
        this.delays = delays;
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.endCapNs = endCapNs;
        this.queue = new EventQueue(4 * n);
        this.retransmitLimit = config.retransmitLimit(n);
        this.maxConfirmations = config.expectedConfirmations(n);

        crashed = new boolean[n];
        incarnation = new int[n];
        permA = new long[n];
        permB = new long[n];
        permIndex = new int[n];
        probeSeq = new int[n];
        probeTarget = new int[n];
        probeAcked = new boolean[n];
        gossipActive = new boolean[n];
        tables = new MemberTable[n];
        outbox = new Broadcasts[n];
        liveCount = n;

        for (int i = 0; i < n; i++)
        {
            newPermutation(i);
            queue.schedule(random.nextLong(config.probeIntervalNs()), TICK, -1, i, 0, null);
        }

        crashRanks = new int[crashes];
        crashTimes = new long[crashes];
        firstSuspect = new long[crashes];
        firstDead = new long[crashes];
        allDead = new long[crashes];
        knownDead = new int[crashes];
        final boolean[] picked = new boolean[n];
        for (int c = 0; c < crashes; c++)
        {
            int rank;
            do
            {
                rank = random.nextInt(n);
            }
            while (picked[rank]);
            picked[rank] = true;
            crashRanks[c] = rank;
            crashTimes[c] = firstCrashNs + (c == 0 || windowNs <= 0 ? 0 : random.nextLong(windowNs));
            firstSuspect[c] = -1;
            firstDead[c] = -1;
            allDead[c] = -1;
            queue.schedule(crashTimes[c], CRASH, -1, rank, c, null);
        }
    }

    /**
     * @return the outcome.
     */
    public SwimResult run()
    {
        while (!queue.isEmpty() && queue.peekTimeNs() <= endCapNs)
        {
            final int slot = queue.poll();
            nowNs = queue.polledTimeNs();
            dispatch(slot);
            queue.release(slot);
            if (crashRanks.length > 0 && crashesDone == crashRanks.length && allKnown())
            {
                break;
            }
        }
        return result();
    }

    private void dispatch(final int slot)
    {
        final int to = queue.to(slot);
        final byte type = queue.type(slot);
        if (type == CRASH)
        {
            crash(to, (int)queue.value(slot));
            return;
        }
        if (crashed[to])
        {
            return;
        }
        final int from = queue.from(slot);
        final long value = queue.value(slot);
        switch (type)
        {
            case TICK -> tick(to);
            case PROBE_TIMEOUT -> probeTimeout(to, (int)value);
            case PERIOD_END -> periodEnd(to, (int)value);
            case SUSPICION_TIMER -> suspicionTimer(to, from, (int)value);
            case GOSSIP_TICK -> gossipTick(to);
            default -> receive(type, from, to, value, (long[])queue.ref(slot));
        }
    }

    private void tick(final int i)
    {
        queue.schedule(nowNs + config.probeIntervalNs(), TICK, -1, i, 0, null);
        final int target = nextProbeTarget(i);
        if (target < 0)
        {
            return;
        }
        final int seq = ++probeSeq[i];
        probeTarget[i] = target;
        probeAcked[i] = false;
        send(PING, i, target, seq);
        queue.schedule(nowNs + config.probeTimeoutNs(), PROBE_TIMEOUT, -1, i, seq, null);
        queue.schedule(nowNs + config.probeIntervalNs() - 1, PERIOD_END, -1, i, seq, null);
    }

    private void probeTimeout(final int i, final int seq)
    {
        if (seq != probeSeq[i] || probeAcked[i])
        {
            return;
        }
        final int target = probeTarget[i];
        final long request = ((long)target << 32) | seq;
        for (int k = 0; k < config.indirectChecks(); k++)
        {
            final int helper = randomPeer(i, target);
            if (helper >= 0)
            {
                send(PING_REQ, i, helper, request);
            }
        }
    }

    private void periodEnd(final int i, final int seq)
    {
        if (seq != probeSeq[i] || probeAcked[i])
        {
            return;
        }
        final int target = probeTarget[i];
        final MemberTable table = table(i);
        if (table.state(target) == MemberTable.DEAD)
        {
            return;
        }
        if (!crashed[target])
        {
            falseSuspicions++;
        }
        apply(i, Broadcasts.pack(target, MemberTable.SUSPECT, table.incarnation(target)), i);
    }

    private void suspicionTimer(final int i, final int member, final int generation)
    {
        final MemberTable table = table(i);
        final int idx = table.indexOf(member);
        if (idx < 0 || table.stateAt(idx) != MemberTable.SUSPECT || table.generationAt(idx) != generation)
        {
            return;
        }
        if (!crashed[member])
        {
            falseDeaths++;
        }
        final int inc = table.incarnationAt(idx);
        table.set(member, MemberTable.DEAD, inc, nowNs);
        enqueue(i, Broadcasts.pack(member, MemberTable.DEAD, inc));
        learnedDead(member);
    }

    private void gossipTick(final int i)
    {
        final Broadcasts box = outbox[i];
        if (box == null || box.isEmpty())
        {
            gossipActive[i] = false;
            return;
        }
        for (int g = 0; g < config.gossipNodes() && !box.isEmpty(); g++)
        {
            final int peer = randomPeer(i, -1);
            if (peer >= 0)
            {
                send(GOSSIP, i, peer, 0);
            }
        }
        queue.schedule(nowNs + config.gossipIntervalNs(), GOSSIP_TICK, -1, i, 0, null);
    }

    private void receive(final byte type, final int from, final int to, final long value, final long[] updates)
    {
        if (updates != null)
        {
            for (final long u : updates)
            {
                apply(to, u, from);
            }
        }
        switch (type)
        {
            case PING -> send(ACK, to, from, value);
            case ACK ->
            {
                final int relayFor = (int)(value >>> 32) - 1;
                final int seq = (int)value;
                if (relayFor >= 0)
                {
                    send(ACK, to, relayFor, seq);
                }
                else if (seq == probeSeq[to])
                {
                    probeAcked[to] = true;
                }
            }
            case PING_REQ ->
            {
                final int target = (int)(value >>> 32);
                final int seq = (int)value;
                send(PING, to, target, ((long)(from + 1) << 32) | seq);
            }
            default ->
            {
            }
        }
    }

    private void apply(final int i, final long update, final int from)
    {
        final int member = Broadcasts.member(update);
        final byte state = Broadcasts.state(update);
        final int inc = Broadcasts.incarnation(update);
        if (member == i)
        {
            if (state != MemberTable.ALIVE && inc >= incarnation[i])
            {
                // refute: a live node is never dead in its own eyes
                incarnation[i] = inc + 1;
                refutations++;
                enqueue(i, Broadcasts.pack(i, MemberTable.ALIVE, incarnation[i]));
            }
            return;
        }
        final MemberTable table = table(i);
        final int idx = table.indexOf(member);
        final byte current = idx < 0 ? MemberTable.ALIVE : table.stateAt(idx);
        final int currentInc = idx < 0 ? 0 : table.incarnationAt(idx);
        switch (state)
        {
            case MemberTable.ALIVE ->
            {
                if (inc > currentInc)
                {
                    final boolean wasDead = current == MemberTable.DEAD;
                    table.set(member, MemberTable.ALIVE, inc, nowNs);
                    if (wasDead)
                    {
                        forgotDead(member);
                    }
                    enqueue(i, update);
                }
            }
            case MemberTable.SUSPECT ->
            {
                if (current == MemberTable.DEAD || inc < currentInc)
                {
                    return;
                }
                if (current == MemberTable.SUSPECT && inc == currentInc)
                {
                    if (from != i && table.confirm(idx, from, maxConfirmations))
                    {
                        scheduleSuspicionTimer(i, member, idx);
                        enqueue(i, update);
                    }
                    return;
                }
                final int at = table.set(member, MemberTable.SUSPECT, inc, nowNs);
                scheduleSuspicionTimer(i, member, at);
                enqueue(i, update);
                final int c = crashIndex(member);
                if (c >= 0 && firstSuspect[c] < 0)
                {
                    firstSuspect[c] = nowNs - crashTimes[c];
                }
            }
            case MemberTable.DEAD ->
            {
                if (current == MemberTable.DEAD || inc < currentInc)
                {
                    return;
                }
                table.set(member, MemberTable.DEAD, inc, nowNs);
                enqueue(i, update);
                learnedDead(member);
            }
            default ->
            {
            }
        }
    }

    private void scheduleSuspicionTimer(final int i, final int member, final int idx)
    {
        final MemberTable table = table(i);
        final long deadline = table.suspectSinceAt(idx) + config.suspicionTimeoutNs(n, table.confirmationsAt(idx));
        queue.schedule(Math.max(nowNs, deadline), SUSPICION_TIMER, member, i, table.generationAt(idx), null);
    }

    private void learnedDead(final int member)
    {
        final int c = crashIndex(member);
        if (c < 0)
        {
            return;
        }
        knownDead[c]++;
        if (firstDead[c] < 0)
        {
            firstDead[c] = nowNs - crashTimes[c];
        }
        checkAllKnown(c);
    }

    private void forgotDead(final int member)
    {
        final int c = crashIndex(member);
        if (c >= 0)
        {
            knownDead[c]--;
        }
    }

    private void checkAllKnown(final int c)
    {
        if (allDead[c] < 0 && crashed[crashRanks[c]] && knownDead[c] >= liveCount)
        {
            allDead[c] = nowNs - crashTimes[c];
        }
    }

    private boolean allKnown()
    {
        for (final long t : allDead)
        {
            if (t < 0)
            {
                return false;
            }
        }
        return true;
    }

    private void crash(final int rank, final int c)
    {
        crashed[rank] = true;
        crashesDone++;
        liveCount--;
        // the crashed node's own knowledge no longer counts towards "every live node knows"
        final MemberTable table = tables[rank];
        if (table != null)
        {
            for (int k = 0; k < table.size(); k++)
            {
                if (table.stateAt(k) == MemberTable.DEAD)
                {
                    forgotDead(table.memberAt(k));
                }
            }
        }
        for (int k = 0; k < crashRanks.length; k++)
        {
            if (crashed[crashRanks[k]])
            {
                checkAllKnown(k);
            }
        }
    }

    private int crashIndex(final int member)
    {
        if (!crashed[member])
        {
            return -1;
        }
        for (int c = 0; c < crashRanks.length; c++)
        {
            if (crashRanks[c] == member)
            {
                return c;
            }
        }
        return -1;
    }

    private void enqueue(final int i, final long update)
    {
        Broadcasts box = outbox[i];
        if (box == null)
        {
            box = new Broadcasts();
            outbox[i] = box;
        }
        box.enqueue(update);
        if (!gossipActive[i])
        {
            gossipActive[i] = true;
            queue.schedule(nowNs + 1 + random.nextLong(config.gossipIntervalNs()), GOSSIP_TICK, -1, i, 0, null);
        }
    }

    private void send(final byte type, final int from, final int to, final long value)
    {
        messages++;
        final Broadcasts box = outbox[from];
        final long[] piggyback = box == null ? null : box.take(config.maxPiggyback(), retransmitLimit);
        queue.schedule(nowNs + delays.delayNs(random), type, from, to, value, piggyback);
    }

    private int nextProbeTarget(final int i)
    {
        final MemberTable table = tables[i];
        for (int tries = 0; tries < n; tries++)
        {
            if (permIndex[i] == n)
            {
                newPermutation(i);
            }
            final int candidate = (int)((permA[i] * permIndex[i]++ + permB[i]) % n);
            if (candidate != i && (table == null || table.state(candidate) != MemberTable.DEAD))
            {
                return candidate;
            }
        }
        return -1;
    }

    private void newPermutation(final int i)
    {
        long a;
        do
        {
            a = 1 + random.nextInt(n - 1);
        }
        while (gcd(a, n) != 1);
        permA[i] = a;
        permB[i] = random.nextInt(n);
        permIndex[i] = 0;
    }

    private int randomPeer(final int self, final int exclude)
    {
        final MemberTable table = tables[self];
        for (int tries = 0; tries < 32; tries++)
        {
            final int peer = random.nextInt(n);
            if (peer != self && peer != exclude && (table == null || table.state(peer) != MemberTable.DEAD))
            {
                return peer;
            }
        }
        return -1;
    }

    private MemberTable table(final int i)
    {
        MemberTable table = tables[i];
        if (table == null)
        {
            table = new MemberTable();
            tables[i] = table;
        }
        return table;
    }

    private static long gcd(final long a, final long b)
    {
        long x = a;
        long y = b;
        while (y != 0)
        {
            final long t = x % y;
            x = y;
            y = t;
        }
        return x;
    }

    private SwimResult result()
    {
        return new SwimResult(seed, n, crashRanks.length, mean(firstSuspect), mean(firstDead), mean(allDead),
            falseSuspicions, falseDeaths, refutations, messages, nowNs);
    }

    private static long mean(final long[] values)
    {
        if (values.length == 0)
        {
            return -1;
        }
        long sum = 0;
        for (final long v : values)
        {
            if (v < 0)
            {
                return -1;
            }
            sum += v;
        }
        return sum / values.length;
    }
}
