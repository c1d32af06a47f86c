package io.ringwatch.core.sim;

/**
 * How a simulated cluster starts.
 */
public enum BootMode
{
    /** Every rank is a member from the start and starts within one heartbeat period: the paper's model. */
    MEMBERS,

    /**
     * Start = join: the seeds start at once and form the initial membership; every other rank starts at a random
     * moment within the start spread and joins under incarnation 1.
     */
    JOIN,

    /**
     * A broken rule, for negative controls: every rank is a member from the start, but the ranks that are no seeds
     * start at random moments within the start spread, without joining. A spread above δ gets ranks declared dead
     * before they started.
     */
    LATE_MEMBERS
}
