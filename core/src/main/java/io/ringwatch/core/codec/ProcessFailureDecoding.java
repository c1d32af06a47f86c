package io.ringwatch.core.codec;

import io.ringwatch.core.process.ProcessNotice;
import io.ringwatch.core.process.ReusableProcessNotice;
import io.ringwatch.core.spi.RankArray;
import org.agrona.MutableDirectBuffer;

/**
 * {@link FrameDecoder}'s checks and decoding of a PROCESS_FAILURE body, kept apart so the node-level decoder reads
 * as it did. Reuses the node notice's reject reasons: the runs obey the same rules, and a process list that is
 * out of order or negative is refused as unsorted or out of range.
 */
final class ProcessFailureDecoding
{
    private final int clusterSize;
    private final int maxRuns;
    private final ProcessFailureFlyweight flyweight = new ProcessFailureFlyweight();
    private final RankArray excluded;
    private final RankArray processes =
        new RankArray(ProcessFailureFlyweight.MAX_PROCESSES, ProcessFailureFlyweight.MAX_PROCESSES);
    private final ReusableProcessNotice notice = new ReusableProcessNotice();

    ProcessFailureDecoding(final int clusterSize, final int maxRuns)
    {
        this.clusterSize = clusterSize;
        this.maxRuns = maxRuns;
        this.excluded = new RankArray(FrameDecoder.DEFAULT_NOTICE_CAPACITY, clusterSize);
        notice.set(0, 0, 0L, excluded, processes);
    }

    RejectReason checkStructure(final MutableDirectBuffer frame, final int length)
    {
        if (length < ProcessFailureFlyweight.lengthOf(0, 0))
        {
            return RejectReason.WRONG_LENGTH;
        }
        flyweight.wrap(frame, 0);
        final int rangeCount = flyweight.rangeCount();
        final int processCount = flyweight.processCount();
        if (rangeCount < 0 || rangeCount > maxRuns ||
            processCount < 1 || processCount > ProcessFailureFlyweight.MAX_PROCESSES)
        {
            return RejectReason.RANGE_COUNT_OUT_OF_RANGE;
        }
        return length == ProcessFailureFlyweight.lengthOf(rangeCount, processCount) ?
            RejectReason.NONE : RejectReason.WRONG_LENGTH;
    }

    // checkStructure has established the counts and the exact length.
    RejectReason decode(final MutableDirectBuffer frame)
    {
        final ProcessFailureFlyweight flyweight = this.flyweight.wrap(frame, 0);
        final int sourceRank = flyweight.sourceRank();
        if (sourceRank < 0 || sourceRank >= clusterSize)
        {
            return RejectReason.RANK_OUT_OF_RANGE;
        }
        final long sequence = flyweight.sequence();
        if (sequence < 1)
        {
            return RejectReason.BAD_SEQUENCE;
        }

        final RejectReason badRuns = RejectReason.ofRuns(
            flyweight, clusterSize, RejectReason.RANGES_OVERLAP, RejectReason.RANGES_OVERLAP, sourceRank);
        if (badRuns != RejectReason.NONE)
        {
            return badRuns;
        }

        final int processCount = flyweight.processCount();
        int previous = -1;
        for (int i = 0; i < processCount; i++)
        {
            final int process = flyweight.process(i);
            if (process < 0)
            {
                return RejectReason.RANK_OUT_OF_RANGE;
            }
            if (process <= previous)
            {
                return RejectReason.RANGES_NOT_SORTED;
            }
            previous = process;
        }

        excluded.setRuns(flyweight);
        processes.clear();
        for (int i = 0; i < processCount; i++)
        {
            processes.appendRun(flyweight.process(i), 1);
        }
        notice.set(sourceRank, flyweight.sourceIncarnation(), sequence, excluded, processes);
        return RejectReason.NONE;
    }

    ProcessNotice notice()
    {
        return notice;
    }
}
