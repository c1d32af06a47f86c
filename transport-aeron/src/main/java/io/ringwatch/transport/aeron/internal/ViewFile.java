package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.transport.aeron.RingwatchConfiguration;
import io.ringwatch.transport.aeron.view.JournalLayout;
import io.ringwatch.transport.aeron.view.ViewLayout;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.invoke.VarHandle;
import java.time.Instant;
import java.nio.MappedByteBuffer;

import static io.ringwatch.transport.aeron.view.ViewLayout.*;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Writer side of a node's view file, fed by the protocol's listener callbacks on the agent thread.
 * <p>
 * Updates are bracketed by the sequence field (odd while writing). The protocol reports a change as several
 * {@code onFailure} calls followed by one {@code onViewChange}; the bracket opens at the first and closes at the
 * second, so a reader never sees half of a merged notice. No allocation after construction.
 */
public final class ViewFile implements MembershipListener, AutoCloseable
{
    private final File file;
    private final int clusterSize;
    private final int rank;
    private MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private long sequence;
    private boolean writing;
    private MembershipJournal journal;
    private long ownIncarnation;

    /**
     * Create (or truncate) the view file of a node and write its header.
     *
     * @param file        where.
     * @param clusterId   cluster.
     * @param clusterSize N.
     * @param rank        node.
     * @param startNs     the node's start time.
     */
    public ViewFile(final File file, final int clusterId, final int clusterSize, final int rank, final long startNs)
    {
        this.file = file;
        this.clusterSize = clusterSize;
        this.rank = rank;
        if (file.exists() && !file.delete())
        {
            throw new IllegalStateException("cannot replace stale view file " + file);
        }
        final File parent = file.getAbsoluteFile().getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs() && !parent.isDirectory())
        {
            throw new IllegalStateException("cannot create directory for view file: " + parent);
        }
        SharedFiles.prepare(file, RingwatchConfiguration.filesGroup());
        try (RandomAccessFile raf = new RandomAccessFile(file, "rw"))
        {
            raf.setLength(ViewLayout.fileLength(clusterSize));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot size view file " + file, ex);
        }
        this.mapped = IoUtil.mapExistingFile(file, "view file");
        this.buffer = new UnsafeBuffer(mapped);

        buffer.putLong(PID_OFFSET, ProcessHandle.current().pid(), LITTLE_ENDIAN);
        buffer.putLong(PID_START_MS_OFFSET, ProcessHandle.current().info().startInstant()
            .map(Instant::toEpochMilli).orElse(0L), LITTLE_ENDIAN);
        buffer.putInt(CLUSTER_ID_OFFSET, clusterId, LITTLE_ENDIAN);
        buffer.putInt(CLUSTER_SIZE_OFFSET, clusterSize, LITTLE_ENDIAN);
        buffer.putInt(RANK_OFFSET, rank, LITTLE_ENDIAN);
        buffer.putInt(STATE_OFFSET, NodeState.ACTIVE.code(), LITTLE_ENDIAN);
        buffer.putInt(EXCLUDED_BY_OFFSET, -1, LITTLE_ENDIAN);
        buffer.putLong(START_NS_OFFSET, startNs, LITTLE_ENDIAN);
        buffer.putInt(VERSION_OFFSET, VERSION, LITTLE_ENDIAN);
        // magic last: a reader that sees it sees a complete header
        buffer.putIntRelease(MAGIC_OFFSET, MAGIC);
    }

    /**
     * {@inheritDoc}
     */
    public void onFailure(final int rank, final long nowNs, final FailureCause cause, final int reporterRank)
    {
        if (rank < 0 || rank >= clusterSize)
        {
            return;
        }
        beginUpdate();
        final int wordOffset = HEADER_LENGTH + (rank >>> 6) * Long.BYTES;
        buffer.putLong(wordOffset, buffer.getLong(wordOffset, LITTLE_ENDIAN) | (1L << (rank & 63)), LITTLE_ENDIAN);
        final int record = recordOffset(clusterSize, rank);
        buffer.putLong(record + RECORD_DETECTED_AT_OFFSET, nowNs, LITTLE_ENDIAN);
        buffer.putInt(record + RECORD_CAUSE_OFFSET, cause.code(), LITTLE_ENDIAN);
        buffer.putInt(record + RECORD_REPORTER_OFFSET, reporterRank, LITTLE_ENDIAN);
        journal(JournalLayout.Event.DEAD, rank, buffer.getLong(incarnationOffset(clusterSize, rank), LITTLE_ENDIAN),
            cause.code(), reporterRank);
    }

    /**
     * {@inheritDoc}
     */
    public void onExcluded(final long nowNs, final ExclusionCause cause, final int reporterRank)
    {
        final NodeState state = cause == ExclusionCause.LEFT ? NodeState.LEFT : NodeState.EXCLUDED;
        beginUpdate();
        buffer.putInt(STATE_OFFSET, state.code(), LITTLE_ENDIAN);
        buffer.putInt(EXCLUSION_CAUSE_OFFSET, cause.code(), LITTLE_ENDIAN);
        buffer.putInt(EXCLUDED_BY_OFFSET, reporterRank, LITTLE_ENDIAN);
        buffer.putLong(EXCLUDED_AT_NS_OFFSET, nowNs, LITTLE_ENDIAN);
        endUpdate();
        journal(JournalLayout.Event.EXCLUDED, rank, ownIncarnation, cause.code(), reporterRank);
    }

    /**
     * {@inheritDoc}
     */
    public void onJoin(final int joinedRank, final long incarnation, final long nowNs)
    {
        if (joinedRank < 0 || joinedRank >= clusterSize)
        {
            return;
        }
        beginUpdate();
        final int wordOffset = HEADER_LENGTH + (joinedRank >>> 6) * Long.BYTES;
        buffer.putLong(wordOffset, buffer.getLong(wordOffset, LITTLE_ENDIAN) & ~(1L << (joinedRank & 63)),
            LITTLE_ENDIAN);
        final int record = recordOffset(clusterSize, joinedRank);
        buffer.putLong(record + RECORD_DETECTED_AT_OFFSET, nowNs, LITTLE_ENDIAN);
        buffer.putInt(record + RECORD_CAUSE_OFFSET, CAUSE_JOINED, LITTLE_ENDIAN);
        buffer.putInt(record + RECORD_REPORTER_OFFSET, -1, LITTLE_ENDIAN);
        buffer.putLong(incarnationOffset(clusterSize, joinedRank), incarnation, LITTLE_ENDIAN);
        if (joinedRank == rank)
        {
            buffer.putInt(STATE_OFFSET, NodeState.ACTIVE.code(), LITTLE_ENDIAN);
            ownIncarnation = incarnation;
        }
        journal(JournalLayout.Event.JOINED, joinedRank, incarnation, CAUSE_JOINED, -1);
    }

    /**
     * Record every incarnation this node's view holds, including those a joiner learned from its contact's view
     * rather than from a JOIN; the agent calls it with each view change. Sparse: only ranks that rejoined.
     *
     * @param incarnations the view's incarnations.
     */
    public void recordIncarnations(final RankIncarnations incarnations)
    {
        beginUpdate();
        for (int i = 0, size = incarnations.size(); i < size; i++)
        {
            final int r = incarnations.rankAt(i);
            if (r >= 0 && r < clusterSize)
            {
                buffer.putLong(incarnationOffset(clusterSize, r), incarnations.incarnationAt(i), LITTLE_ENDIAN);
            }
        }
    }

    /**
     * This node starts by joining: {@link NodeState#JOINING} until its own {@link #onJoin}.
     *
     * @param incarnation the incarnation it asks to be admitted under.
     */
    public void joining(final long incarnation)
    {
        beginUpdate();
        buffer.putInt(STATE_OFFSET, NodeState.JOINING.code(), LITTLE_ENDIAN);
        buffer.putLong(incarnationOffset(clusterSize, rank), incarnation, LITTLE_ENDIAN);
        endUpdate();
        ownIncarnation = incarnation;
        journal(JournalLayout.Event.JOINING, rank, incarnation, 0, -1);
    }

    /**
     * Keep a membership journal beside this view: every event this file records is appended to it as well. The
     * view file owns it from here (closes it after its own stop record).
     *
     * @param journal     the rank's journal.
     * @param incarnation this node's incarnation at start.
     * @param joining     whether it starts by joining rather than as a seed.
     */
    public void journal(final MembershipJournal journal, final long incarnation, final boolean joining)
    {
        this.journal = journal;
        this.ownIncarnation = incarnation;
        journal.append(JournalLayout.Event.STARTED, rank, incarnation,
            joining ? JournalLayout.STARTED_TO_JOIN : JournalLayout.STARTED_AS_SEED, -1);
    }

    private void journal(final JournalLayout.Event event, final int r, final long incarnation, final int cause,
        final int reporter)
    {
        final MembershipJournal journal = this.journal;
        if (journal != null)
        {
            journal.append(event, r, incarnation, cause, reporter);
        }
    }

    /**
     * {@inheritDoc}
     */
    public void onViewChange(final long viewEpoch, final int deadCount, final long nowNs)
    {
        beginUpdate();
        buffer.putLong(VIEW_EPOCH_OFFSET, viewEpoch, LITTLE_ENDIAN);
        buffer.putInt(DEAD_COUNT_OFFSET, deadCount, LITTLE_ENDIAN);
        endUpdate();
    }

    /**
     * Liveness gauge for tools: the node's heartbeat progress count and when it last moved. Outside the seqlock.
     *
     * @param progress heartbeat progress seen so far.
     * @param nowNs    when.
     */
    public void heartbeatProgress(final long progress, final long nowNs)
    {
        buffer.putLongRelease(LAST_PROGRESS_NS_OFFSET, nowNs);
        buffer.putLongRelease(HEARTBEAT_PROGRESS_OFFSET, progress);
    }

    /**
     * Close a bracket left open by failures without a following view change; the agent calls it once per cycle.
     */
    public void endUpdateIfOpen()
    {
        if (writing)
        {
            endUpdate();
        }
    }

    private void beginUpdate()
    {
        if (!writing)
        {
            writing = true;
            buffer.putLongRelease(SEQUENCE_OFFSET, ++sequence);
            // the odd sequence must be visible before any data store of this update
            VarHandle.storeStoreFence();
        }
    }

    private void endUpdate()
    {
        writing = false;
        buffer.putLongRelease(SEQUENCE_OFFSET, ++sequence);
    }

    /**
     * @return the mapped file.
     */
    public File file()
    {
        return file;
    }

    /**
     * Say the node stopped, and why, unless it said so before: the view a reader finds after the node is gone tells
     * a stopped node from one that died. Call once the agent no longer writes.
     *
     * @param stopCause {@link ViewLayout#STOP_CLOSED} or {@link ViewLayout#STOP_START_FAILED}.
     */
    public void stopped(final int stopCause)
    {
        if (mapped == null || buffer.getInt(STOP_CAUSE_OFFSET, LITTLE_ENDIAN) != STOP_NONE)
        {
            return;
        }
        // a bracket the agent left open is closed by this update
        beginUpdate();
        buffer.putInt(STOP_CAUSE_OFFSET, stopCause, LITTLE_ENDIAN);
        buffer.putLong(STOPPED_AT_MS_OFFSET, System.currentTimeMillis(), LITTLE_ENDIAN);
        endUpdate();
        journal(JournalLayout.Event.STOPPED, rank, ownIncarnation, stopCause, -1);
    }

    /**
     * Say the node stopped ({@link ViewLayout#STOP_CLOSED} unless a cause was given before) and unmap; the file stays
     * so tools can read the final view of a stopped node.
     */
    public void close()
    {
        if (mapped != null)
        {
            stopped(STOP_CLOSED);
            IoUtil.unmap(mapped);
            mapped = null;
        }
        if (journal != null)
        {
            journal.close();
        }
    }
}
