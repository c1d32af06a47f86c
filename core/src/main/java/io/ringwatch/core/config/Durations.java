package io.ringwatch.core.config;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one grammar for durations on every command line, in the cluster file and in {@code ringwatch.*} system
 * properties: a non-negative decimal number and its unit, {@code ns}, {@code us}, {@code ms} or {@code s}, e.g.
 * {@code 10ms}, {@code 1.5ms}, {@code 500us}, {@code 0s}. The unit is required. Read as nanoseconds, as Agrona's
 * parser reads it, a bare {@code --heartbeat-period 1 --suspicion-timeout 10} would start a cluster that declares
 * everyone dead; here it is an error that says which unit to add.
 * <p>
 * Zero is a duration (no startup grace, say); each setting that needs a positive one checks that itself.
 */
public final class Durations
{
    private static final Pattern NUMBER = Pattern.compile("[0-9]+(\\.[0-9]*)?|\\.[0-9]+");
    private static final Pattern DURATION =
        Pattern.compile("(" + NUMBER.pattern() + ")(ns|us|ms|s)", Pattern.CASE_INSENSITIVE);

    private static final long NS_PER_US = 1_000L;
    private static final long NS_PER_MS = 1_000_000L;
    private static final long NS_PER_S = 1_000_000_000L;

    private Durations()
    {
    }

    /**
     * @param name what the text sets, as the user wrote it ({@code --suspicion-timeout},
     *             {@code ringwatch.suspicion.timeout}, {@code suspicion-timeout}); every message starts with it.
     * @param text e.g. {@code 10ms}; surrounding white space is ignored.
     * @return nanoseconds, {@code >= 0}.
     * @throws IllegalArgumentException naming {@code name} and {@code text}: no unit (the message suggests the four
     *                                  units), an unknown unit or malformed number, a negative value, a fraction of a
     *                                  nanosecond, or more than {@link Long#MAX_VALUE} ns.
     */
    public static long parseNs(final String name, final String text)
    {
        final String trimmed = text.trim();
        final Matcher m = DURATION.matcher(trimmed);
        if (!m.matches())
        {
            throw new IllegalArgumentException(name + " " + whyNot(trimmed));
        }
        final BigDecimal ns = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unitNs(m.group(3))));
        try
        {
            return ns.longValueExact();
        }
        catch (final ArithmeticException ex)
        {
            throw new IllegalArgumentException(name + " '" + trimmed + "' " +
                (ns.stripTrailingZeros().scale() > 0 ? "is not a whole number of nanoseconds" :
                "is too long: at most " + Long.MAX_VALUE + "ns (about 292 years)"));
        }
    }

    /**
     * @param propName  a system property holding a duration, e.g. {@code ringwatch.suspicion.timeout}.
     * @param defaultNs value when the property is absent.
     * @return the property read by {@link #parseNs}, or the default.
     * @throws IllegalArgumentException naming the property if its value is not a duration with a unit.
     */
    public static long propertyNs(final String propName, final long defaultNs)
    {
        final String value = System.getProperty(propName);
        return null == value ? defaultNs : parseNs(propName, value);
    }

    /**
     * @param ns a duration.
     * @return it in the largest unit that keeps it whole, in the grammar {@link #parseNs} reads: {@code 10ms},
     * {@code 1500us}, {@code 0s}.
     */
    public static String format(final long ns)
    {
        if (ns % NS_PER_S == 0)
        {
            return ns / NS_PER_S + "s";
        }
        if (ns % NS_PER_MS == 0)
        {
            return ns / NS_PER_MS + "ms";
        }
        if (ns % NS_PER_US == 0)
        {
            return ns / NS_PER_US + "us";
        }
        return ns + "ns";
    }

    private static String whyNot(final String text)
    {
        if (text.isEmpty())
        {
            return "is empty: give a number and a unit, e.g. 10ms";
        }
        if (NUMBER.matcher(text).matches())
        {
            return "'" + text + "' needs a unit: " + text + "ms, " + text + "s, " + text + "us or " + text + "ns";
        }
        if (text.startsWith("-") && DURATION.matcher(text.substring(1)).matches())
        {
            return "'" + text + "' is negative";
        }
        return "'" + text + "' is not a duration: a number and one of ns, us, ms, s (e.g. 10ms)";
    }

    private static long unitNs(final String unit)
    {
        return switch (unit.toLowerCase(Locale.ROOT))
        {
            case "ns" -> 1L;
            case "us" -> NS_PER_US;
            case "ms" -> NS_PER_MS;
            default -> NS_PER_S;
        };
    }
}
