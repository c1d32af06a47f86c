package io.ringwatch.perf.nemesis;

import io.ringwatch.transport.aeron.view.JournalEntry;

import java.util.List;

/**
 * Everything a nemesis run recorded, on one monotonic clock: the nodes' membership journals, every process the
 * supervisors ran and how it ended, and the faults. What {@link HistoryChecker} judges.
 *
 * @param hostOf      the host of each rank (index: rank).
 * @param deltaNs     δ.
 * @param etaNs       η.
 * @param journal     every journal record of every node, any order.
 * @param lives       every node process, launched and ended.
 * @param drivers     every media driver process (rank field: its host).
 * @param faults      the faults, any order.
 * @param healedNs    when the last fault was undone and the fault phase ended.
 * @param admittedNs  when every rank was first seen running and admitted in every node's view after that, with one
 *                    incarnation per rank everywhere; -1 if never within the run.
 * @param finalViews  the views at the end, one line per node: for messages.
 * @param endNs       when the run stopped watching: what happens later (the teardown) is not judged.
 */
public record NemesisHistory(
    int[] hostOf,
    long deltaNs,
    long etaNs,
    List<JournalEntry> journal,
    List<Life> lives,
    List<Life> drivers,
    List<Fault> faults,
    long healedNs,
    long admittedNs,
    String finalViews,
    long endNs)
{
    /**
     * @return N.
     */
    public int clusterSize()
    {
        return hostOf.length;
    }
}
