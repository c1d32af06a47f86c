package io.ringwatch.transport.aeron;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A systemd unit file read as systemd reads the parts the tests need (systemd.syntax(7), systemd.service(5)):
 * sections, continuation lines, repeated keys, {@code Environment=} assignments with quotes, and {@code ExecStart=}
 * expanded as systemd does: {@code %i} and {@code %%}, {@code ${VAR}} inside a word, {@code $VAR} alone as a word
 * split at whitespace (and gone when empty).
 */
final class SystemdUnit
{
    private static final Pattern BRACED = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
    private static final Pattern WORD_VARIABLE = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");

    private final Map<String, Map<String, List<String>>> sections = new LinkedHashMap<>();

    private SystemdUnit()
    {
    }

    static SystemdUnit read(final Path file) throws IOException
    {
        final SystemdUnit unit = new SystemdUnit();
        Map<String, List<String>> section = null;
        final StringBuilder logical = new StringBuilder();
        for (final String raw : Files.readAllLines(file, StandardCharsets.UTF_8))
        {
            final String line = raw.strip();
            if (logical.length() == 0 && (line.isEmpty() || line.startsWith("#") || line.startsWith(";")))
            {
                continue;
            }
            if (line.endsWith("\\"))
            {
                logical.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            logical.append(line);
            final String full = logical.toString();
            logical.setLength(0);
            if (full.startsWith("[") && full.endsWith("]"))
            {
                section = unit.sections.computeIfAbsent(full.substring(1, full.length() - 1),
                    name -> new LinkedHashMap<>());
                continue;
            }
            final int eq = full.indexOf('=');
            if (section == null || eq < 0)
            {
                throw new IllegalArgumentException(file + ": not a unit file line: " + full);
            }
            section.computeIfAbsent(full.substring(0, eq).strip(), key -> new ArrayList<>())
                .add(full.substring(eq + 1).strip());
        }
        return unit;
    }

    /**
     * @return every value given to the key, in order; empty if none.
     */
    List<String> values(final String section, final String key)
    {
        return sections.getOrDefault(section, Map.of()).getOrDefault(key, List.of());
    }

    /**
     * @return the last value given to the key (systemd: a later one overrides), or null.
     */
    String value(final String section, final String key)
    {
        final List<String> values = values(section, key);
        return values.isEmpty() ? null : values.get(values.size() - 1);
    }

    /**
     * @return the {@code Environment=} assignments of [Service], later ones overriding earlier ones.
     */
    Map<String, String> environment()
    {
        final Map<String, String> env = new LinkedHashMap<>();
        for (final String assignments : values("Service", "Environment"))
        {
            for (final String assignment : words(assignments))
            {
                final int eq = assignment.indexOf('=');
                env.put(assignment.substring(0, eq), assignment.substring(eq + 1));
            }
        }
        return env;
    }

    /**
     * @param env      the environment the command runs with.
     * @param instance what {@code %i} stands for.
     * @return {@code ExecStart=} as the argument vector systemd would execute.
     */
    List<String> execStart(final Map<String, String> env, final String instance)
    {
        final List<String> argv = new ArrayList<>();
        for (final String word : words(value("Service", "ExecStart").replace("%%", "\u0000")
            .replace("%i", instance).replace("\u0000", "%")))
        {
            final Matcher whole = WORD_VARIABLE.matcher(word);
            if (whole.matches())
            {
                final String value = env.getOrDefault(whole.group(1), "").strip();
                if (!value.isEmpty())
                {
                    argv.addAll(List.of(value.split("\\s+")));
                }
                continue;
            }
            final Matcher braced = BRACED.matcher(word);
            final StringBuilder expanded = new StringBuilder();
            while (braced.find())
            {
                braced.appendReplacement(expanded, Matcher.quoteReplacement(env.getOrDefault(braced.group(1), "")));
            }
            braced.appendTail(expanded);
            argv.add(expanded.toString());
        }
        return argv;
    }

    private static List<String> words(final String text)
    {
        final List<String> words = new ArrayList<>();
        final StringBuilder word = new StringBuilder();
        boolean quoted = false;
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c == '"')
            {
                quoted = !quoted;
                inWord = true;
            }
            else if (Character.isWhitespace(c) && !quoted)
            {
                if (inWord)
                {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            }
            else
            {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord)
        {
            words.add(word.toString());
        }
        return words;
    }
}
