package io.ringwatch.transport.aeron;

import org.junit.jupiter.api.Assumptions;

/**
 * Live cases that the default test run leaves out to keep CI within 20 minutes on a 2-core host; the same behaviour
 * stays covered there by a quicker sibling (the other transport, or a shorter scenario). {@code -Dringwatch.long=true}
 * runs them all (docs/operations.md, "Tests").
 */
public final class LongCases
{
    private LongCases()
    {
    }

    /**
     * @param what the case, for the skip message.
     */
    public static void onlyWhenAsked(final String what)
    {
        Assumptions.assumeTrue(Boolean.getBoolean("ringwatch.long"),
            what + ": a long live case, left out of the default run to keep CI within 20 minutes; " +
            "-Dringwatch.long=true runs it");
    }
}
