package io.ringwatch.perf;

/**
 * A bad command line: the message names the offending flag and value.
 */
final class UsageException extends Exception
{
    UsageException(final String message)
    {
        super(message);
    }
}
