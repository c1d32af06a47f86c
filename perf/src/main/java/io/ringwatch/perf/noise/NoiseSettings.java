package io.ringwatch.perf.noise;

import java.util.Set;

/**
 * How the noise benchmark measures.
 *
 * @param pairs            A/B pairs per configuration.
 * @param runNs            length of one DGEMM or FWQ run.
 * @param loads            which of {@code dgemm}, {@code fwq}, {@code hpl} to run.
 * @param dgemmN           DGEMM matrix order.
 * @param fwqQuantumNs     target length of one FWQ quantum.
 * @param hplN             HPL problem size.
 * @param seed             matrix contents and which side of the first pair runs first.
 * @param graceNs          the nodes' startup grace.
 * @param settleNs         wait after the cluster is up before its window.
 * @param startTimeoutNs   time for a cluster to come up.
 * @param realtimePriority SCHED_FIFO priority for low-noise agents, 0 for none.
 * @param cold             true for a freshly started detector per B run (the cost of a detector just launched);
 *                         false for one detector per configuration, warmed, frozen for A and running for B (the
 *                         steady-state cost).
 * @param warmNs           steady state: how long the detector runs before the first pair (JIT settled).
 * @param classpath        classpath of node and worker JVMs, null for this JVM's.
 */
public record NoiseSettings(
    int pairs,
    long runNs,
    Set<String> loads,
    int dgemmN,
    long fwqQuantumNs,
    int hplN,
    long seed,
    long graceNs,
    long settleNs,
    long startTimeoutNs,
    int realtimePriority,
    boolean cold,
    long warmNs,
    String classpath)
{
    /** Load names. */
    public static final String DGEMM = "dgemm";
    /** Load names. */
    public static final String FWQ = "fwq";
    /** Load names. */
    public static final String HPL = "hpl";
}
