package io.ringwatch.perf.nemesis;

import io.ringwatch.transport.aeron.launch.LaunchedCluster;
import io.ringwatch.transport.aeron.view.JournalEntry;
import io.ringwatch.transport.aeron.view.JournalReader;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Copies the nodes' membership journals as they grow: a driver that restarts deletes its Aeron directory, journals
 * included, and a ring overwrites its oldest records, so the nemesis keeps every record it has read, once.
 */
final class JournalCollector
{
    private final LaunchedCluster cluster;
    private final Map<String, JournalEntry> records = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();

    JournalCollector(final LaunchedCluster cluster)
    {
        this.cluster = cluster;
    }

    /**
     * Read every journal of one host now.
     *
     * @param host a host.
     */
    synchronized void harvest(final int host)
    {
        final List<String> unreadable = new ArrayList<>();
        for (final JournalEntry e : JournalReader.readHost(cluster.aeronDir(host),
            Integer.toString(cluster.options().clusterId()), unreadable))
        {
            records.putIfAbsent(e.node() + "/" + e.pid() + "/" + e.sequence() + "/" + e.monoNs(), e);
        }
        // a journal being created or deleted with its directory reads as unreadable for a moment: keep the last word
        if (!unreadable.isEmpty())
        {
            problems.clear();
            problems.addAll(unreadable);
        }
    }

    /**
     * Read every host's journals now.
     */
    synchronized void harvestAll()
    {
        for (int h = 0; h < cluster.hostCount(); h++)
        {
            harvest(h);
        }
    }

    /**
     * @return every record read so far.
     */
    synchronized List<JournalEntry> records()
    {
        return new ArrayList<>(records.values());
    }
}
