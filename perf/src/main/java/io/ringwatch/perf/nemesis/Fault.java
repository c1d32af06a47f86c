package io.ringwatch.perf.nemesis;

import java.util.Arrays;

/**
 * One fault the nemesis injected, on the host's monotonic clock ({@code System.nanoTime()}, which the nodes' journals
 * share).
 *
 * @param id      its number in the run, from 1.
 * @param kind    what.
 * @param startNs when it took effect.
 * @param endNs   when it was undone (equal to {@code startNs} for a kill).
 * @param hosts   hosts it cut off, deafened, loaded or whose driver it killed; for a split, one side (the smaller),
 *                the other being the rest: which side must stop is judged from the membership then.
 * @param ranks   nodes it signalled.
 * @param detail  free text for the log.
 */
public record Fault(int id, FaultKind kind, long startNs, long endNs, int[] hosts, int[] ranks, String detail)
{
    /**
     * @return how long it was in force.
     */
    public long durationNs()
    {
        return endNs - startNs;
    }

    /**
     * @param host a host.
     * @return whether this fault acts on it.
     */
    public boolean onHost(final int host)
    {
        return Arrays.stream(hosts).anyMatch(h -> h == host);
    }

    /**
     * @param rank a node.
     * @return whether this fault signalled it.
     */
    public boolean onRank(final int rank)
    {
        return Arrays.stream(ranks).anyMatch(r -> r == rank);
    }

    /**
     * @param fromNs start of an interval.
     * @param toNs   its end.
     * @return whether the fault was in force at some time in it.
     */
    public boolean overlaps(final long fromNs, final long toNs)
    {
        return startNs <= toNs && endNs >= fromNs;
    }

    public String toString()
    {
        return "#" + id + " " + kind.cliName() + " hosts=" + Arrays.toString(hosts) + " ranks=" +
            Arrays.toString(ranks) + " " + (durationNs() / 1_000_000) + " ms" + (detail.isEmpty() ? "" : " " + detail);
    }
}
