package io.ringwatch.core.sim;

import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.RankArray;

/**
 * A VIEW (state transfer) as it travels through the simulated network: private copies nobody mutates.
 *
 * @param dead         the contact's dead set.
 * @param incarnations the contact's incarnations.
 */
record SimView(RankArray dead, IncarnationTable incarnations)
{
}
