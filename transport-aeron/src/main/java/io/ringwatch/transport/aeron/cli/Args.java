package io.ringwatch.transport.aeron.cli;

import org.agrona.SystemUtil;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code --name value} options of one command, checked against the names the command knows.
 */
final class Args
{
    private final String command;
    private final Map<String, String> values = new HashMap<>();

    Args(final String command, final String[] args, final int from, final Set<String> known)
    {
        this.command = command;
        for (int i = from; i < args.length; i++)
        {
            final String arg = args[i];
            if (!arg.startsWith("--"))
            {
                throw new IllegalArgumentException(command + ": unexpected argument '" + arg + "'");
            }
            final String name = arg.substring(2);
            if (!known.contains(name))
            {
                throw new IllegalArgumentException(command + ": unknown option --" + name + " (known: " + known + ")");
            }
            if (i + 1 >= args.length)
            {
                throw new IllegalArgumentException(command + ": option --" + name + " needs a value");
            }
            values.put(name, args[++i]);
        }
    }

    String get(final String name, final String fallback)
    {
        return values.getOrDefault(name, fallback);
    }

    boolean has(final String name)
    {
        return values.containsKey(name);
    }

    int getInt(final String name, final int fallback)
    {
        final String v = values.get(name);
        return v == null ? fallback : parse(name, v, Integer::parseInt, "a number");
    }

    long getLong(final String name, final long fallback)
    {
        final String v = values.get(name);
        return v == null ? fallback : parse(name, v, Long::parseLong, "a number");
    }

    long getDurationNs(final String name, final long fallbackNs)
    {
        final String v = values.get(name);
        return v == null ?
            fallbackNs : parse(name, v, (s) -> SystemUtil.parseDuration(name, s), "a duration (e.g. 10ms)");
    }

    private <T> T parse(final String name, final String value, final Function<String, T> parser, final String what)
    {
        try
        {
            return parser.apply(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(command + ": --" + name + " is not " + what + ": '" + value + "'", ex);
        }
    }
}
