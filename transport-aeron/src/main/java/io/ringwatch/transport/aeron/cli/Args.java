package io.ringwatch.transport.aeron.cli;

import io.ringwatch.core.config.Durations;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The command-line parser of every {@code ringwatch.jar} and {@code ringwatch-perf.jar} command: {@code --name value},
 * {@code --name=value} and value-less switches. Every accessor consumes its option and remembers the name;
 * {@link #finish()} rejects whatever none consumed, so a typo is an error rather than an option silently ignored,
 * and an old spelling is an error that names the new one.
 */
public final class Args
{
    /** η, the heartbeat period, on every command that takes it. */
    public static final String HEARTBEAT_PERIOD = "--heartbeat-period";

    /** δ, the suspicion timeout, on every command that takes it. */
    public static final String SUSPICION_TIMEOUT = "--suspicion-timeout";

    /** Spellings of η and δ that earlier versions took, and what they are called now. */
    private static final Map<String, String> RENAMED = Map.of(
        "--heartbeat", HEARTBEAT_PERIOD,
        "--eta", HEARTBEAT_PERIOD,
        "--period", HEARTBEAT_PERIOD,
        "--timeout", SUSPICION_TIMEOUT,
        "--delta", SUSPICION_TIMEOUT,
        "--timeouts", SUSPICION_TIMEOUT + "s",
        "--eta-ratio", HEARTBEAT_PERIOD + "-ratio",
        "--etas", HEARTBEAT_PERIOD + "s");

    /** The startup grace, on every command that takes it. */
    public static final String STARTUP_GRACE = "--startup-grace";

    /** Application processes per node (two levels), on every command that takes it. */
    public static final String PROCS_PER_NODE = "--procs-per-node";

    /** How many nodes a run kills, on every command that takes it. */
    public static final String KILLS = "--kills";

    /**
     * Spellings that still work but are deprecated (one concept had a different name on different commands): each is
     * read as its new name, with a warning on stderr.
     */
    private static final Map<String, String> DEPRECATED = Map.of(
        "--grace", STARTUP_GRACE,
        "--procs", PROCS_PER_NODE,
        "--kill", KILLS);

    private final Map<String, String> values = new LinkedHashMap<>();
    private final Set<String> known = new TreeSet<>();

    /**
     * @param argv     the command line.
     * @param from     index of the first option (after the command's name).
     * @param switches names of the options that take no value, e.g. {@code --one-port}.
     * @throws UsageException on a stray argument, an option given twice or an option without its value.
     */
    public Args(final String[] argv, final int from, final String... switches)
    {
        final Set<String> switchNames = Set.of(switches);
        for (int i = from; i < argv.length; i++)
        {
            final String arg = argv[i];
            if (!arg.startsWith("--") || arg.length() == 2)
            {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            final int eq = arg.indexOf('=');
            final String name = canonical(eq > 0 ? arg.substring(0, eq) : arg);
            if (values.containsKey(name))
            {
                throw new UsageException("option " + name + " given twice");
            }
            if (eq > 0)
            {
                values.put(name, arg.substring(eq + 1));
            }
            else if (switchNames.contains(name))
            {
                values.put(name, "true");
            }
            else if (i + 1 < argv.length)
            {
                values.put(name, argv[++i]);
            }
            else
            {
                throw new UsageException("option " + name + " needs a value");
            }
        }
    }

    private static String canonical(final String name)
    {
        final String renamed = DEPRECATED.get(name);
        if (renamed == null)
        {
            return name;
        }
        System.err.println("warning: " + name + " is deprecated, read as " + renamed + " (its name on every command)");
        return renamed;
    }

    /**
     * @param name option, with its dashes.
     * @return true if it was given and not yet consumed.
     */
    public boolean isSet(final String name)
    {
        known.add(name);
        return values.containsKey(name);
    }

    /**
     * @param name a switch.
     * @return true if given (bare, or {@code =true}).
     * @throws UsageException if given a value other than true or false.
     */
    public boolean switchOn(final String name)
    {
        final String value = take(name);
        if (value == null)
        {
            return false;
        }
        if ("true".equals(value) || "false".equals(value))
        {
            return Boolean.parseBoolean(value);
        }
        throw new UsageException("bad value for " + name + ": '" + value + "' (expected true or false)");
    }

    /**
     * @param name         option.
     * @param defaultValue value when absent.
     * @return the value as given.
     */
    public String string(final String name, final String defaultValue)
    {
        final String value = take(name);
        return value == null ? defaultValue : value;
    }

    /**
     * @param name         option.
     * @param defaultValue value when absent.
     * @return the comma-separated items of the value, trimmed, blanks dropped.
     */
    public List<String> list(final String name, final String defaultValue)
    {
        final List<String> items = new ArrayList<>();
        for (final String item : string(name, defaultValue).split(","))
        {
            if (!item.isBlank())
            {
                items.add(item.trim());
            }
        }
        return items;
    }

    /**
     * @param name         option.
     * @param defaultValue value when absent (not range-checked).
     * @param min          least value accepted.
     * @param max          greatest value accepted.
     * @return the value.
     * @throws UsageException if not an integer in [min, max].
     */
    public int intValue(final String name, final int defaultValue, final int min, final int max)
    {
        return (int)longValue(name, defaultValue, min, max);
    }

    /**
     * @param name         option.
     * @param defaultValue value when absent (not range-checked).
     * @param min          least value accepted.
     * @param max          greatest value accepted.
     * @return the value; underscores between digits are allowed ({@code 1_000_000}).
     * @throws UsageException if not an integer in [min, max].
     */
    public long longValue(final String name, final long defaultValue, final long min, final long max)
    {
        return number(name, defaultValue, min, max, (v) -> Long.parseLong(v.replace("_", "")), "an integer");
    }

    /**
     * @param name         option.
     * @param defaultValue value when absent (not range-checked).
     * @param min          least value accepted.
     * @param max          greatest value accepted.
     * @return the value.
     * @throws UsageException if not a number in [min, max].
     */
    public double doubleValue(final String name, final double defaultValue, final double min, final double max)
    {
        return number(name, defaultValue, min, max, Double::parseDouble, "a number");
    }

    /**
     * @param name      option.
     * @param defaultNs value when absent.
     * @return the value in nanoseconds, read by {@link Durations#parseNs}: a unit is required.
     * @throws UsageException naming the option and value if it is not a duration.
     */
    public long durationNs(final String name, final long defaultNs)
    {
        final String value = take(name);
        return value == null ? defaultNs : durationNs(name, value);
    }

    /**
     * @param name  option the text came from, for the message.
     * @param value e.g. {@code 10ms}, one item of a list option.
     * @return nanoseconds.
     * @throws UsageException naming the option and value if it is not a duration.
     */
    public static long durationNs(final String name, final String value)
    {
        try
        {
            return Durations.parseNs(name, value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(ex.getMessage());
        }
    }

    /**
     * Call after every accessor.
     *
     * @throws UsageException naming an option nobody consumed, with its new spelling if it was renamed.
     */
    public void finish()
    {
        if (values.isEmpty())
        {
            return;
        }
        final String name = values.keySet().iterator().next();
        final String renamed = RENAMED.get(name);
        if (renamed != null && known.contains(renamed))
        {
            throw new UsageException(name + " was renamed " + renamed);
        }
        throw new UsageException("unknown option " + name +
            (known.isEmpty() ? "" : " (known: " + String.join(", ", known) + ")"));
    }

    private <T extends Comparable<T>> T number(
        final String name, final T defaultValue, final T min, final T max, final Function<String, T> parser,
        final String expected)
    {
        final String value = take(name);
        if (value == null)
        {
            return defaultValue;
        }
        final T parsed;
        try
        {
            parsed = parser.apply(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException("bad value for " + name + ": '" + value + "' (expected " + expected + ")");
        }
        // NaN compares above every double, so it is out of range too
        if (parsed.compareTo(min) < 0 || parsed.compareTo(max) > 0)
        {
            throw new UsageException("bad value for " + name + ": '" + value + "' (expected " + min + ".." + max + ")");
        }
        return parsed;
    }

    private String take(final String name)
    {
        known.add(name);
        return values.remove(name);
    }
}
