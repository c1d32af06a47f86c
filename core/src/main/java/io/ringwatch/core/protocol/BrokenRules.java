package io.ringwatch.core.protocol;

import java.util.Arrays;

/**
 * The negative controls: each {@code BREAK_*} bit switches one rule of the protocol off, so that a checker in the
 * simulator, the explorer or a live test can be shown to catch its absence. Set through
 * {@link ProtocolSettings#withBrokenRules(int)}; a node never runs with any of them in production.
 */
public final class BrokenRules
{
    /**
     * Negative controls only: an emitter that answers a probe but does not beat is not asked again to take this node
     * as its observer.
     */
    public static final int BREAK_OBSERVER_REQUEST = 1;

    /**
     * Negative controls only: a run is declared on evidence of a working ear however old it is (no recheck).
     */
    public static final int BREAK_FRESH_EVIDENCE = 1 << 1;

    /**
     * Negative controls only: the old arming rule, under which a deadline that fell in the startup grace comes due
     * as the grace ends, instead of δ after it.
     */
    public static final int BREAK_GRACE_ARMING = 1 << 2;

    /**
     * Negative controls only: a zombie's death is announced again by every node that hears any frame of it, probes
     * and forwarded notices included, not only by its ring neighbours.
     */
    public static final int BREAK_QUIET_ZOMBIE_FRAMES = 1 << 3;

    /**
     * Negative controls only: a node whose probes of everyone went unanswered in a cut does not ask the unanswered
     * again while it confirms the run's silence.
     */
    public static final int BREAK_COUNT_AGAIN = 1 << 4;

    /**
     * Negative controls only: the leader re-forms a cluster with the ranks that answered its poll, taking the silent
     * ones for dead, instead of only when every rank answered.
     */
    public static final int BREAK_REFORM_UNANIMITY = 1 << 5;

    /**
     * Negative controls only: a contact sends its JOIN to every participant itself and nobody relays it, instead of
     * starting it on the double hypercube (in the one-port model the contact's sends then queue one behind another).
     */
    public static final int BREAK_JOIN_STAR = 1 << 6;

    /**
     * Negative controls only: a contact acts on a JOIN_REQUEST under a newer incarnation at once, taking it for proof
     * that the life it holds alive has ended, instead of first challenging the joiner to return a fresh nonce (a
     * recorded request then gets a live rank declared dead).
     */
    public static final int BREAK_JOIN_CHALLENGE = 1 << 7;

    /**
     * Negative controls only: a node that heard nobody at all declares its silent run even when only ranks admitted
     * since M settled stand between it and a majority (a re-formed leader, M alone, then declares every rank it
     * admitted as soon as it goes deaf).
     */
    public static final int BREAK_STALE_COUNT = 1 << 8;

    /**
     * Negative controls only: the node's decoder takes authentic frames under any run, not only its own (a frame
     * recorded in an earlier run of the cluster is then believed). Read by the runtime, which owns the decoder.
     */
    public static final int BREAK_RUN_BINDING = 1 << 9;

    /**
     * Negative controls only: a rank that joined counts towards M only once the view has been unchanged for the whole
     * settle period, as deaths do, instead of 2δ after its JOIN when nothing but joins changed the view.
     */
    public static final int BREAK_JOIN_SETTLE = 1 << 10;

    /**
     * Negative controls only: a joiner counts itself in M as soon as it is admitted, while the members that admitted it
     * count it only once the view has been quiet for the join's time.
     */
    public static final int BREAK_JOINER_COUNTS_ITSELF = 1 << 11;

    /**
     * Negative controls only: the ear check's witnesses are the live ranks exactly 2^i away, so the dead thin the
     * sample instead of the nearest live rank beyond each standing in.
     */
    public static final int BREAK_THIN_WITNESSES = 1 << 12;

    // the names of the BREAK_* bits, lowest first, as the simulator's --break takes them
    private static final String[] BROKEN_RULE_NAMES = {"observer-request", "fresh-evidence", "grace-arming",
        "quiet-zombie-frames", "count-again", "reform-unanimity", "join-star", "join-challenge", "stale-count",
        "run-binding", "join-settle", "joiner-counts-itself", "thin-witnesses"};

    private BrokenRules()
    {
    }

    /**
     * @param names comma-separated rule names: {@code observer-request}, {@code fresh-evidence},
     *              {@code grace-arming}, {@code quiet-zombie-frames}, {@code count-again},
     *              {@code reform-unanimity}, {@code join-star}, {@code join-challenge}, {@code stale-count}, {@code run-binding},
     *              {@code join-settle}; empty
     *              for none.
     * @return the mask of their {@code BREAK_*} bits.
     * @throws IllegalArgumentException naming an unknown rule.
     */
    public static int named(final String names)
    {
        int mask = 0;
        for (final String name : names.split(","))
        {
            if (name.isBlank())
            {
                continue;
            }
            final int bit = Arrays.asList(BROKEN_RULE_NAMES).indexOf(name.trim());
            if (bit < 0)
            {
                throw new IllegalArgumentException("unknown rule '" + name.trim() + "', expected one of " +
                    String.join(", ", BROKEN_RULE_NAMES));
            }
            mask |= 1 << bit;
        }
        return mask;
    }
}
