package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;

record TestNotice(int deadRank, int sourceRank, long sourceIncarnation, long sequence, RankSet deadSet)
    implements Notice
{
    static TestNotice of(final int deadRank, final int source, final long sequence, final int... dead)
    {
        final RankArray set = new RankArray(4);
        set.add(deadRank);
        for (final int d : dead)
        {
            set.add(d);
        }
        return new TestNotice(deadRank, source, 7, sequence, set);
    }
}
