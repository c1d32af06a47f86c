package io.ringwatch.perf.reproduce;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One experiment's table: a header of {@code # key=value} comment lines (seed and command first), a column row,
 * then data rows. Numbers are written with {@link Locale#ROOT} so the file parses the same everywhere.
 */
public final class CsvTable
{
    private final List<String> comments = new ArrayList<>();
    private final String[] columns;
    private final List<String[]> rows = new ArrayList<>();

    /**
     * @param seed        the root seed of the reproduction.
     * @param commandLine how the run was started.
     * @param columns     column names.
     */
    public CsvTable(final long seed, final String commandLine, final String... columns)
    {
        comments.add("seed=" + seed);
        comments.add("command=" + commandLine);
        this.columns = columns.clone();
    }

    /**
     * @param key   name.
     * @param value value; newlines are flattened.
     * @return this.
     */
    public CsvTable comment(final String key, final Object value)
    {
        comments.add(key + "=" + String.valueOf(value).replace('\n', ' '));
        return this;
    }

    /**
     * @param values one value per column: numbers, strings without commas.
     * @return this.
     */
    public CsvTable row(final Object... values)
    {
        if (values.length != columns.length)
        {
            throw new IllegalArgumentException("row has " + values.length + " values, table has " +
                columns.length + " columns");
        }
        final String[] cells = new String[values.length];
        for (int i = 0; i < values.length; i++)
        {
            cells[i] = format(values[i]);
        }
        rows.add(cells);
        return this;
    }

    /**
     * @return number of data rows.
     */
    public int size()
    {
        return rows.size();
    }

    /**
     * @param path file to write.
     * @throws IOException on write failure.
     */
    public void write(final Path path) throws IOException
    {
        try (Writer w = Files.newBufferedWriter(path, StandardCharsets.UTF_8))
        {
            for (final String c : comments)
            {
                w.write("# " + c + "\n");
            }
            w.write(String.join(",", columns) + "\n");
            for (final String[] row : rows)
            {
                w.write(String.join(",", row) + "\n");
            }
        }
    }

    private static String format(final Object value)
    {
        if (value instanceof Double d)
        {
            return Double.isFinite(d) ? String.format(Locale.ROOT, "%.9g", d) : "NaN";
        }
        if (value instanceof Float f)
        {
            return format(f.doubleValue());
        }
        final String s = String.valueOf(value);
        if (s.indexOf(',') >= 0 || s.indexOf('\n') >= 0)
        {
            throw new IllegalArgumentException("CSV cell must not contain a comma or newline: " + s);
        }
        return s;
    }
}
