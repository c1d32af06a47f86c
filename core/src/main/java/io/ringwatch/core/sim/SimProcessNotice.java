package io.ringwatch.core.sim;

import io.ringwatch.core.process.ProcessNotice;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;

/**
 * An immutable copy of a process notice travelling through the simulated network, shared by every message of its
 * broadcast.
 *
 * @param sourceRank        the daemon that started the broadcast.
 * @param sourceIncarnation its incarnation.
 * @param sequence          its broadcast sequence.
 * @param excludedNodes     D_msg, a private copy.
 * @param deadProcesses     the dead application ranks, a private copy.
 */
record SimProcessNotice(
    int sourceRank, long sourceIncarnation, long sequence, RankSet excludedNodes, RankSet deadProcesses)
    implements ProcessNotice
{
    static SimProcessNotice copyOf(final ProcessNotice notice)
    {
        return new SimProcessNotice(notice.sourceRank(), notice.sourceIncarnation(), notice.sequence(),
            RankArray.copyOf(notice.excludedNodes()), RankArray.copyOf(notice.deadProcesses()));
    }

    boolean sameBroadcast(final ProcessNotice notice)
    {
        return sequence == notice.sequence() && sourceRank == notice.sourceRank() &&
            sourceIncarnation == notice.sourceIncarnation();
    }
}
