package io.ringwatch.core.protocol;

/**
 * Where a node stands in the protocol. Every state but {@link #ACTIVE} and {@link #JOINING} is final: a node that leaves it has stopped
 * taking part for good (fail-stop), which is what keeps a perfect detector perfect.
 * <p>
 * {@link #code()} is the stable number written to view files and counters; never reuse a retired code.
 */
public enum NodeState
{
    /** Taking part in the protocol. */
    ACTIVE(0),
    /** Declared dead by the others, or fenced by a node that holds it dead; stopped. */
    EXCLUDED(1),
    /** Left gracefully; stopped. */
    LEFT(2),
    /** Restarted under a new incarnation and asking to be admitted; becomes {@link #ACTIVE} once it has the view. */
    JOINING(3);

    private static final NodeState[] BY_CODE = values();

    private final int code;

    NodeState(final int code)
    {
        this.code = code;
    }

    /**
     * @return the stable code of this state.
     */
    public int code()
    {
        return code;
    }

    /**
     * @param code a code from {@link #code()}.
     * @return the state, or null for a code this version does not know (a newer writer).
     */
    public static NodeState ofCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length && BY_CODE[code].code == code ? BY_CODE[code] : null;
    }
}
