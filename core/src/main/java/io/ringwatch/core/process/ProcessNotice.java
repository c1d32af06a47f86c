package io.ringwatch.core.process;

import io.ringwatch.core.spi.RankSet;

/**
 * A PROCESS_FAILURE notice as the process level sees it: the application processes a daemon saw die, broadcast over
 * the daemons like a node failure notice. The broadcast id (source, source incarnation, sequence) makes every daemon
 * forward it once; the excluded set is D_msg, the node ranks the source held dead when it started, from which every
 * daemon computes the same schedule.
 * <p>
 * A view, valid only during the call it is passed to.
 */
public interface ProcessNotice
{
    /**
     * @return the daemon (node rank) that saw the processes die and started the broadcast.
     */
    int sourceRank();

    /**
     * @return its incarnation.
     */
    long sourceIncarnation();

    /**
     * @return its broadcast sequence, from 1.
     */
    long sequence();

    /**
     * @return D_msg: node ranks not taking part, ascending; never contains the source.
     */
    RankSet excludedNodes();

    /**
     * @return the dead application ranks it announces, ascending, at least one: every process of the source's node
     * it has seen fail so far, so a later notice also carries what an earlier, lost one said.
     */
    RankSet deadProcesses();
}
