/**
 * The protocol core: one node of the failure detector ({@link io.ringwatch.core.protocol.DetectorNode}, the façade
 * its drivers see) and the parts it is built from, each named after its concept in paper 002 or in the rules added
 * off the paper's map. The parts share one state ({@link io.ringwatch.core.protocol.LocalView}: D, the epoch and
 * the role) and none calls back into the node:
 * <ul>
 * <li>{@link io.ringwatch.core.ring.Ring}: who watches whom, FindEmitter;</li>
 * <li>{@link Observation} and {@link Detection}: T1–T3, the startup grace, the pause guard, a run declared;</li>
 * <li>{@link Neighbours}: T4 and the ring's repairs;</li>
 * <li>{@link Learning}, {@link Notices} and {@link NoticeReceipt}: T5, broadcasts started, forwarded, judged,
 * merged;</li>
 * <li>{@link Admission}: stale incarnations and fencing of zombies (off the paper's map, as all below);</li>
 * <li>{@link ProbeSession} (returns a verdict), {@link MajorityRule}, {@link Quorum}: the partition rule;</li>
 * <li>{@link Membership}, {@link Joining}, {@link JoinerRole}, {@link JoinContact}, {@link Reform}: joins, start =
 * join, re-form;</li>
 * <li>{@link HealRetell} and {@link ViewRepair}: repairs after a cut;</li>
 * <li>{@link RunBinding}: which run of the cluster the node's frames are bound to;</li>
 * <li>{@link ProtocolCounters}: what it counts, one descriptor per counter ({@link ProtocolCounter}).</li>
 * </ul>
 * Pure: time, transport and randomness come in from the driver; nothing here starts a thread or allocates in steady
 * state, so the simulator, the explorer and the live agent run the very same objects.
 */
package io.ringwatch.core.protocol;
