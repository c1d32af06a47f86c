package io.ringwatch.core.protocol;

/**
 * What the protocol counts, one descriptor per counter: the node, its parts, the simulator and the live runtime's
 * counters file ({@code ringwatch stat}, {@code AeronStat}) all read these, so a counter is declared once.
 */
public enum ProtocolCounter
{
    /** Heartbeats this node wrote or sent to its observer. */
    HEARTBEATS_SENT("heartbeats sent"),
    /** Duty cycles that saw new progress in this node's slot. */
    HEARTBEAT_PROGRESS_SEEN("slot progress seen"),
    /** Heartbeat deadlines this node (as emitter) passed without beating: late by more than η. */
    HEARTBEAT_DEADLINES_MISSED("heartbeat deadlines missed"),
    /** Largest interval between two heartbeats this node emitted, ns (a maximum, not a count). */
    MAX_HEARTBEAT_GAP_NS("largest heartbeat gap ns"),
    /** Runs of silent predecessors this node declared dead (T3). */
    SUSPICIONS("suspicions"),
    /** Late duty cycles that made this node restart its suspicion window. */
    PAUSES_DETECTED("pauses detected"),
    /** Broadcasts this node started. */
    NOTICES_ORIGINATED("notices originated"),
    /** Notice copies forwarded along the schedule (T5). */
    NOTICES_FORWARDED("notices forwarded"),
    /** Notice copies of a broadcast already seen. */
    NOTICES_DUPLICATE("notices duplicate"),
    /** Notices whose D_msg would leave no majority alive, or a minority's notices: never merged. */
    NOTICES_REFUSED("notices refused"),
    /** Copies of a broadcast handed to a rank that rejoined after it started (its schedule skips it). */
    CATCH_UPS_FORWARDED("catch-ups forwarded"),
    /** Frames from a rank this node holds dead: dropped, and the sender fenced. */
    FRAMES_FROM_DEAD("frames from dead ranks"),
    /** Fencing notices sent to ranks held dead that were still heard from. */
    FENCES_SENT("fences sent"),
    /** Fences that reached a rank they did not name: dropped, never forwarded. */
    STRAY_FENCES("stray fences"),
    /** Frames from, or about, an older incarnation than this view holds. */
    STALE_FRAMES("stale frames"),
    /** NEW_OBSERVER frames addressed to another rank: dropped. */
    MISADDRESSED("new observer misaddressed"),
    /** NEW_OBSERVER frames refused: a slot descriptor the transport refused, or a farther successor than one known. */
    NEW_OBSERVER_REFUSED("new observer refused"),
    /** NEW_OBSERVER sent again to an emitter that answered a probe but did not beat this node. */
    NEW_OBSERVER_RESENT("new observer resent"),
    /** HEARTBEAT frames the heartbeat channel would not deposit. */
    HEARTBEAT_FRAMES_REFUSED("heartbeat frames refused"),
    /** PROBE frames sent: confirming suspicions, checking minority notices. */
    PROBES_SENT("probes sent"),
    /** JOIN_REQUEST frames this node sent as a joiner. */
    JOIN_REQUESTS_SENT("join requests sent"),
    /** Joiners this node admitted as their contact under a newer incarnation. */
    JOINS_ADMITTED("joins admitted"),
    /** JOINs this node learned: ranks it took back alive. */
    JOINS_LEARNED("joins learned"),
    /** Join requests refused: this node counted no majority to admit anyone with. */
    JOINS_REFUSED("joins refused"),
    /** Heal notices this node announced: its emitter beat again after a silence taken for a cut. */
    HEALS_ANNOUNCED("heals announced"),
    /** Deaths and JOINs this node told again after a heal. */
    HEAL_RETELLS("heal retells"),
    /** Digests of this node's view sent to its ring neighbours. */
    VIEW_DIGESTS_SENT("view digests sent"),
    /** Neighbours' digests that differed from this node's view; each was answered with the view. */
    VIEW_DIGEST_MISMATCHES("view digest mismatches"),
    /** Neighbours' views that changed this node's view: broadcasts it had missed. */
    VIEWS_REPAIRED("views repaired"),
    /** Neighbours' views whose deaths were refused: they would have left no majority. */
    VIEW_REPAIRS_REFUSED("view repairs refused"),
    /** REFORM_POLL frames sent: this node, the lowest rank, could not join and asked whether every rank is joining. */
    REFORM_POLLS_SENT("reform polls sent"),
    /** REFORM_ACK frames sent: polls this joiner answered, each binding it to the poller for a lease. */
    REFORM_ACKS_SENT("reform acks sent"),
    /** Times this node re-formed the cluster as its lone seed, every other rank having answered its poll. */
    REFORMS("cluster reforms"),
    /** Views a joiner refused while bound to the lowest rank's poll. */
    REFORM_VIEWS_REFUSED("reform views refused"),
    /** NEW_OBSERVER frames from a farther successor than this view's nearest live one: held until the view agrees. */
    NEW_OBSERVER_DEFERRED("new observer deferred"),
    /** JOIN_REQUESTs under a newer incarnation than held, answered with a nonce to prove first ({@link JoinChallenge}):
     * a replayed request's challenge is never answered. */
    JOIN_CHALLENGES_SENT("join challenges sent"),
    /** Challenges this node answered with a JOIN_PROOF: it was asking to join. */
    JOIN_PROOFS_SENT("join proofs sent"),
    /** JOIN_PROOFs whose nonce this contact did not draw for that life in the last δ to 2δ (a recording, or late):
     * nothing done but a new challenge. */
    JOIN_PROOFS_REFUSED("join proofs refused"),
    /** Challenges to this node while it was not asking to join: the answer to someone else's replay of its request. */
    JOIN_CHALLENGES_IGNORED("join challenges ignored"),
    /** A higher run adopted from a peer's frame during the startup grace (the seeds agreeing on their run). */
    RUNS_ADOPTED("runs adopted"),
    /** A run learned from a contact's challenge that returned this joiner's nonce. */
    RUNS_LEARNED("runs learned");

    private static final ProtocolCounter[] VALUES = values();

    private final String label;

    ProtocolCounter(final String label)
    {
        this.label = label;
    }

    /**
     * @return the counter's label, as {@code stat} shows it.
     */
    public String label()
    {
        return label;
    }

    /**
     * @return every counter, in declaration order; a shared array, not to be modified.
     */
    static ProtocolCounter[] all()
    {
        return VALUES;
    }
}
