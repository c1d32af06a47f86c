/**
 * A seeded discrete-event simulator that drives the real {@link io.ringwatch.core.protocol.DetectorNode}s, one
 * per rank, in virtual time over a simulated network, and checks every run.
 * <p>
 * {@link io.ringwatch.core.sim.SimConfig} sets the cluster (N, η, δ, τ), the network (one-port, loss) and the
 * faults: scripted {@link io.ringwatch.core.sim.Injection}s (crash, pause, graceful leave) and generated crashes
 * ({@link io.ringwatch.core.sim.FailurePlacement}: random ranks, a contiguous segment, or exponential arrivals
 * with per-node MTBF μ_ind). {@link io.ringwatch.core.sim.Simulation#run(SimConfig)} returns a
 * {@link io.ringwatch.core.sim.SimResult}: detection and stabilization times, message counts, and violations of
 * <ul>
 *     <li>completeness: every stopped rank ends in every survivor's dead set;</li>
 *     <li>accuracy: no node ever declares dead a node that is running and has not been silent (paused) within
 *     the last δ, checked at the moment of the declaration; a paused node that was declared dead must end
 *     excluded (fenced);</li>
 *     <li>ring: every survivor ends linked to its nearest live predecessor and successor;</li>
 *     <li>liveness: the configuration becomes stable before the time cap;</li>
 *     <li>Theorem 1 of paper 002: with the one-port model, no loss, η ≥ 3τ and 1 ≤ f ≤ ⌊log₂ n⌋ − 1 crashes,
 *     stabilization takes at most f(f+1)δ + fτ + f(f+1)/2 · 8τ log₂ n.</li>
 * </ul>
 * Stabilization time is measured exactly: the simulator keeps, event by event, the number of live nodes whose
 * view and ring links are already right, and the run is stable when that is all of them.
 * <p>
 * The parts: the options by concern ({@link io.ringwatch.core.sim.ProtocolOptions},
 * {@link io.ringwatch.core.sim.NetworkOptions}, {@link io.ringwatch.core.sim.FaultOptions},
 * {@link io.ringwatch.core.sim.ProcessOptions}, {@link io.ringwatch.core.sim.BootOptions},
 * {@link io.ringwatch.core.sim.LimitOptions}); the fault plan drawn from the seed; the network as the nodes see it;
 * the ground truth; and one class per checker, listed in {@link io.ringwatch.core.sim.Checks}.
 */
package io.ringwatch.core.sim;
