package io.ringwatch.transport.aeron.cli;



/**
 * A bad command line: the message names the offending option and value. Unchecked, and an
 * {@link IllegalArgumentException}, so every command's configuration errors exit with the same code.
 */
public final class UsageException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, naming the option and value.
     */
    public UsageException(final String message)
    {
        super(message);
    }
}
