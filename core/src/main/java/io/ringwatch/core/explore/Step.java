package io.ringwatch.core.explore;

import java.util.ArrayList;
import java.util.List;

/**
 * One choice of the explorer: an event the world had pending, or a fault. Written as a letter and a number
 * ({@code w2} wakes node 2, {@code d17} delivers message 17, {@code c1} crashes node 1, ...) so that a trace is a
 * line that {@code explore --replay} runs again.
 *
 * @param kind one of the constants below.
 * @param arg  a rank, a message id or a cut's side mask.
 */
public record Step(int kind, int arg)
{
    static final int WAKE = 0;
    static final int DELIVER = 1;
    static final int RESUME = 2;
    static final int HEAL = 3;
    static final int CRASH = 4;
    static final int PAUSE = 5;
    static final int RESTART = 6;
    static final int CUT = 7;
    static final int LOSE = 8;

    private static final String LETTERS = "wduhcprxl";

    public String toString()
    {
        return kind == HEAL ? "h" : LETTERS.charAt(kind) + Integer.toString(arg);
    }

    /**
     * @param steps steps.
     * @return them, space-separated.
     */
    public static String format(final List<Step> steps)
    {
        final StringBuilder s = new StringBuilder();
        for (final Step step : steps)
        {
            s.append(s.length() > 0 ? " " : "").append(step);
        }
        return s.toString();
    }

    /**
     * @param text steps as {@link #format} writes them.
     * @return the steps.
     * @throws IllegalArgumentException on a malformed step.
     */
    public static List<Step> parse(final String text)
    {
        final List<Step> steps = new ArrayList<>();
        for (final String token : text.trim().split("\\s+"))
        {
            if (token.isEmpty())
            {
                continue;
            }
            final int kind = LETTERS.indexOf(token.charAt(0));
            if (kind < 0 || (kind != HEAL && token.length() < 2))
            {
                throw new IllegalArgumentException("not a step: '" + token + "'");
            }
            steps.add(new Step(kind, kind == HEAL ? 0 : Integer.parseInt(token.substring(1))));
        }
        return steps;
    }
}
