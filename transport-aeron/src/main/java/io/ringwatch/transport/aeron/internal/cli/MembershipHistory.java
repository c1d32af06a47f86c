package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.transport.aeron.view.JournalEntry;
import io.ringwatch.transport.aeron.view.JournalReader;

import java.io.File;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code stat --history}: the membership journals of every node of this host (one Aeron directory), merged in the
 * order of the host's monotonic clock, one event per line.
 */
final class MembershipHistory
{
    private MembershipHistory()
    {
    }

    /**
     * @param aeronDir      the host's Aeron directory.
     * @param clusterFilter only this cluster id, or null.
     * @param out           where the lines go.
     * @return the exit code: 0, or 1 when there was no journal to read.
     */
    static int print(final File aeronDir, final String clusterFilter, final PrintStream out)
    {
        final List<String> problems = new ArrayList<>();
        final List<File> files = JournalReader.journals(aeronDir, clusterFilter);
        if (files.isEmpty())
        {
            out.println("no membership journals in " + aeronDir + (clusterFilter == null ? "" :
                " for cluster " + clusterFilter) + ": pass the --aeron-dir the nodes run with");
            return 1;
        }
        final List<JournalEntry> entries = JournalReader.readHost(aeronDir, clusterFilter, problems);
        out.println("membership history (" + files.size() + " journals in " + aeronDir + ", " + entries.size() +
            " events, ordered by the host's monotonic clock):");
        for (final JournalEntry entry : entries)
        {
            out.println("  " + entry);
        }
        for (final String problem : problems)
        {
            out.println("  unreadable: " + problem);
        }
        return 0;
    }
}
