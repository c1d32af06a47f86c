package io.ringwatch.core.sim;

/**
 * What the option groups of a {@link SimConfig} share when they conclude.
 */
final class Options
{
    private Options()
    {
    }

    /**
     * @param condition what a valid value satisfies.
     * @param message   names the option and its value.
     * @throws IllegalArgumentException with the message unless the condition holds.
     */
    static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }
}
