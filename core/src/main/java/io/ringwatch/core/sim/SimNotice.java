package io.ringwatch.core.sim;

import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;

/**
 * An immutable copy of a failure notice as it travels through the simulated network. One copy is made per
 * broadcast id at its source and shared by every message of that broadcast, forwards included.
 *
 * @param deadRank          the rank announced dead.
 * @param sourceRank        the rank that started the broadcast.
 * @param sourceIncarnation the source's incarnation.
 * @param sequence          the source's broadcast sequence.
 * @param deadSet           D_msg, a private copy nobody mutates.
 * @param subjectIncarnation incarnation of the dead (or joining) rank.
 * @param isJoin            true for a JOIN broadcast.
 */
record SimNotice(
    int deadRank, int sourceRank, long sourceIncarnation, long sequence, RankSet deadSet, long subjectIncarnation,
    boolean isJoin)
    implements Notice
{
    static SimNotice copyOf(final Notice notice)
    {
        return new SimNotice(
            notice.deadRank(),
            notice.sourceRank(),
            notice.sourceIncarnation(),
            notice.sequence(),
            RankArray.copyOf(notice.deadSet()),
            notice.subjectIncarnation(),
            notice.isJoin());
    }

    boolean sameBroadcast(final Notice notice)
    {
        return sequence == notice.sequence() &&
            sourceRank == notice.sourceRank() &&
            sourceIncarnation == notice.sourceIncarnation();
    }
}
