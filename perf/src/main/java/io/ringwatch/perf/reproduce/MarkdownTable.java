package io.ringwatch.perf.reproduce;

/**
 * Builds a small markdown table row by row.
 */
public final class MarkdownTable
{
    private final StringBuilder sb = new StringBuilder();
    private final int columns;

    /**
     * @param header column titles.
     */
    public MarkdownTable(final String... header)
    {
        columns = header.length;
        sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
        for (int i = 0; i < columns; i++)
        {
            sb.append(" --- |");
        }
        sb.append('\n');
    }

    /**
     * @param cells one per column.
     * @return this.
     */
    public MarkdownTable row(final String... cells)
    {
        if (cells.length != columns)
        {
            throw new IllegalArgumentException("expected " + columns + " cells, got " + cells.length);
        }
        sb.append("| ").append(String.join(" | ", cells)).append(" |\n");
        return this;
    }

    public String toString()
    {
        return sb.toString();
    }
}
