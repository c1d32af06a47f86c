package io.ringwatch.transport.aeron.view;

import io.ringwatch.core.spi.ExclusionCause;

import java.time.Instant;
import java.util.Comparator;

/**
 * One record of a membership journal ({@link JournalLayout}), as {@link JournalReader} read it.
 *
 * @param clusterId   the journal's cluster.
 * @param node        the rank whose journal holds it: the node that saw the event.
 * @param sequence    its number in that journal, from 1.
 * @param monoNs      {@code System.nanoTime()} of the writer when it was recorded: comparable across one host.
 * @param wallMs      wall-clock time, ms since the epoch.
 * @param event       what happened.
 * @param rank        to whom.
 * @param incarnation the rank's incarnation as the node knew it.
 * @param cause       the event's cause code.
 * @param reporter    who told the node, or -1.
 * @param pid         the writing process.
 */
public record JournalEntry(int clusterId, int node, long sequence, long monoNs, long wallMs, JournalLayout.Event event,
    int rank, long incarnation, int cause, int reporter, int pid)
{
    /** Time order across the journals of one host, then by writer and sequence for a stable order on ties. */
    public static final Comparator<JournalEntry> TIME_ORDER = Comparator.comparingLong(JournalEntry::monoNs)
        .thenComparingInt(JournalEntry::node).thenComparingLong(JournalEntry::sequence);

    /**
     * @return the cause in words: a failure cause for {@code DEAD}, an exclusion cause for {@code EXCLUDED}, a stop
     * cause for {@code STOPPED}, seed or joiner for {@code STARTED}, "" otherwise.
     */
    public String causeName()
    {
        switch (event)
        {
            case DEAD:
                return ViewLayout.causeName(cause);
            case EXCLUDED:
                final ExclusionCause exclusion = ExclusionCause.ofCode(cause);
                return exclusion == null ? "code " + cause : exclusion.name();
            case STOPPED:
                return ViewLayout.stopCauseName(cause);
            case STARTED:
                return cause == JournalLayout.STARTED_TO_JOIN ? "to join" : "as a seed";
            default:
                return "";
        }
    }

    /**
     * @return one line: wall-clock ISO time, monotonic seconds, who saw what.
     */
    public String toString()
    {
        final StringBuilder sb = new StringBuilder(128)
            .append(Instant.ofEpochMilli(wallMs)).append(" mono=")
            .append(String.format("%d.%09d", monoNs / 1_000_000_000L, Math.abs(monoNs % 1_000_000_000L)))
            .append(" cluster=").append(clusterId).append(" node ").append(node).append(" (pid ").append(pid)
            .append("): ");
        if (rank == node && event != JournalLayout.Event.DEAD && event != JournalLayout.Event.JOINED)
        {
            sb.append("this node ");
        }
        else
        {
            sb.append("rank ").append(rank).append(' ');
        }
        sb.append(event).append(" incarnation ").append(incarnation);
        final String causeName = causeName();
        if (!causeName.isEmpty())
        {
            sb.append(", ").append(causeName);
        }
        if (reporter >= 0)
        {
            sb.append(", reported by rank ").append(reporter);
        }
        return sb.toString();
    }
}
