package io.ringwatch.perf;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --name value} and {@code --switch} arguments. Every accessor consumes its flag; {@link #finish()}
 * rejects whatever was not consumed, so a typo is an error rather than a silently ignored flag.
 */
final class Flags
{
    private final Map<String, String> values = new LinkedHashMap<>();

    /**
     * @param args      the arguments.
     * @param switches  names of flags that take no value.
     * @throws UsageException on a stray argument or a missing value.
     */
    Flags(final String[] args, final String... switches) throws UsageException
    {
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2)
            {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            final int eq = arg.indexOf('=');
            final String name = eq > 0 ? arg.substring(0, eq) : arg;
            if (values.containsKey(name))
            {
                throw new UsageException("flag " + name + " given twice");
            }
            if (eq > 0)
            {
                values.put(name, arg.substring(eq + 1));
            }
            else if (isSwitch(name, switches))
            {
                values.put(name, "true");
            }
            else if (i + 1 < args.length)
            {
                values.put(name, args[++i]);
            }
            else
            {
                throw new UsageException("flag " + name + " needs a value");
            }
        }
    }

    private static boolean isSwitch(final String name, final String[] switches)
    {
        for (final String s : switches)
        {
            if (s.equals(name))
            {
                return true;
            }
        }
        return false;
    }

    boolean isSet(final String name)
    {
        return values.containsKey(name);
    }

    boolean switchOn(final String name) throws UsageException
    {
        final String value = values.remove(name);
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

    String string(final String name, final String defaultValue)
    {
        final String value = values.remove(name);
        return value == null ? defaultValue : value;
    }

    long longValue(final String name, final long defaultValue, final long min, final long max) throws UsageException
    {
        final String value = values.remove(name);
        if (value == null)
        {
            return defaultValue;
        }
        final long parsed;
        try
        {
            parsed = Long.parseLong(value.replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException("bad value for " + name + ": '" + value + "' (expected an integer)");
        }
        if (parsed < min || parsed > max)
        {
            throw new UsageException("bad value for " + name + ": '" + value + "' (expected " + min + ".." + max + ")");
        }
        return parsed;
    }

    double doubleValue(final String name, final double defaultValue, final double min, final double max)
        throws UsageException
    {
        final String value = values.remove(name);
        if (value == null)
        {
            return defaultValue;
        }
        final double parsed;
        try
        {
            parsed = Double.parseDouble(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException("bad value for " + name + ": '" + value + "' (expected a number)");
        }
        if (!(parsed >= min && parsed <= max))
        {
            throw new UsageException("bad value for " + name + ": '" + value + "' (expected " + min + ".." + max + ")");
        }
        return parsed;
    }

    long durationNs(final String name, final long defaultNs) throws UsageException
    {
        final String value = values.remove(name);
        if (value == null)
        {
            return defaultNs;
        }
        try
        {
            return parseDurationNs(value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("bad value for " + name + ": '" + value + "' (" + ex.getMessage() + ")");
        }
    }

    /**
     * @param text a positive number followed by ns, us, ms or s, e.g. {@code 10s}, {@code 1.5ms}.
     * @return nanoseconds.
     * @throws IllegalArgumentException if malformed, not positive, not whole nanoseconds, or too large.
     */
    static long parseDurationNs(final String text)
    {
        final String trimmed = text.trim().toLowerCase();
        final long unitNs;
        final String number;
        if (trimmed.endsWith("ns"))
        {
            unitNs = 1;
            number = trimmed.substring(0, trimmed.length() - 2);
        }
        else if (trimmed.endsWith("us"))
        {
            unitNs = 1_000;
            number = trimmed.substring(0, trimmed.length() - 2);
        }
        else if (trimmed.endsWith("ms"))
        {
            unitNs = 1_000_000;
            number = trimmed.substring(0, trimmed.length() - 2);
        }
        else if (trimmed.endsWith("s"))
        {
            unitNs = 1_000_000_000;
            number = trimmed.substring(0, trimmed.length() - 1);
        }
        else
        {
            throw new IllegalArgumentException("expected a duration with a unit: ns, us, ms or s, e.g. 10s");
        }
        final BigDecimal ns;
        try
        {
            ns = new BigDecimal(number).multiply(BigDecimal.valueOf(unitNs));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("expected a duration with a unit: ns, us, ms or s, e.g. 10s");
        }
        if (ns.signum() <= 0)
        {
            throw new IllegalArgumentException("duration must be positive");
        }
        try
        {
            return ns.longValueExact();
        }
        catch (final ArithmeticException ex)
        {
            throw new IllegalArgumentException("duration must be a whole number of nanoseconds below 2^63");
        }
    }

    /**
     * @throws UsageException if a flag was given that no accessor consumed.
     */
    void finish() throws UsageException
    {
        if (!values.isEmpty())
        {
            throw new UsageException("unknown flag " + values.keySet().iterator().next());
        }
    }
}
