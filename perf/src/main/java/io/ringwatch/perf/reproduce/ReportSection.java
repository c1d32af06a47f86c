package io.ringwatch.perf.reproduce;

import java.util.ArrayList;
import java.util.List;

/**
 * One experiment's part of REPORT.md: a heading, how it was run, a comparison table (the paper's value, ours,
 * and why they differ), the plots and free notes.
 */
public final class ReportSection
{
    private final String title;
    private final List<String> setup = new ArrayList<>();
    private final List<String[]> comparisons = new ArrayList<>();
    private final List<String> images = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> extraTables = new ArrayList<>();
    private final List<String> files = new ArrayList<>();

    /**
     * @param title heading, e.g. "1. Risk analysis (§3.3, Fig. 3)".
     */
    public ReportSection(final String title)
    {
        this.title = title;
    }

    /**
     * @param text a sentence on the set-up (parameters, runs, simplifications).
     * @return this.
     */
    public ReportSection setup(final String text)
    {
        setup.add(text);
        return this;
    }

    /**
     * @param quantity what is compared.
     * @param paper    the paper's stated value ("—" if it states none).
     * @param ours     our value.
     * @param verdict  agreement, or the disagreement and its cause.
     * @return this.
     */
    public ReportSection compare(final String quantity, final String paper, final String ours, final String verdict)
    {
        comparisons.add(new String[]{quantity, paper, ours, verdict});
        return this;
    }

    /**
     * @param markdownTable a complete markdown table (e.g. per-n values).
     * @return this.
     */
    public ReportSection table(final String markdownTable)
    {
        extraTables.add(markdownTable);
        return this;
    }

    /**
     * @param fileName PNG in the same folder as the report.
     * @param alt      alternative text.
     * @return this.
     */
    public ReportSection image(final String fileName, final String alt)
    {
        images.add("![" + alt + "](" + fileName + ")");
        return this;
    }

    /**
     * @param fileName output file of the experiment (CSV).
     * @return this.
     */
    public ReportSection file(final String fileName)
    {
        files.add(fileName);
        return this;
    }

    /**
     * @param text a remark.
     * @return this.
     */
    public ReportSection note(final String text)
    {
        notes.add(text);
        return this;
    }

    /**
     * @return number of comparison rows (tests use it).
     */
    public int comparisonCount()
    {
        return comparisons.size();
    }

    /**
     * @return the section as markdown.
     */
    public String toMarkdown()
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("## ").append(title).append("\n\n");
        for (final String s : setup)
        {
            sb.append(s).append("\n\n");
        }
        if (!comparisons.isEmpty())
        {
            sb.append("| Quantity | Paper | Ours | Agreement / cause of difference |\n");
            sb.append("| --- | --- | --- | --- |\n");
            for (final String[] row : comparisons)
            {
                sb.append("| ").append(escape(row[0])).append(" | ").append(escape(row[1])).append(" | ")
                    .append(escape(row[2])).append(" | ").append(escape(row[3])).append(" |\n");
            }
            sb.append('\n');
        }
        for (final String t : extraTables)
        {
            sb.append(t).append('\n');
        }
        for (final String image : images)
        {
            sb.append(image).append("\n\n");
        }
        for (final String n : notes)
        {
            sb.append("- ").append(n).append('\n');
        }
        if (!notes.isEmpty())
        {
            sb.append('\n');
        }
        if (!files.isEmpty())
        {
            sb.append("Data: ");
            for (int i = 0; i < files.size(); i++)
            {
                sb.append(i == 0 ? "" : ", ").append('`').append(files.get(i)).append('`');
            }
            sb.append("\n\n");
        }
        return sb.toString();
    }

    private static String escape(final String cell)
    {
        return cell.replace("|", "\\|").replace("\n", " ");
    }
}
