/**
 * The {@code detection} benchmark: real node processes on this host (one
 * {@link io.ringwatch.transport.aeron.launch.LocalCluster} per cluster start, media driver in a process of its own),
 * SIGKILLed one at a time at random moments, with every survivor's view file polled for when it learned of the
 * death and for live nodes it wrongly holds dead.
 * <ul>
 *     <li>{@link io.ringwatch.perf.live.DetectionBenchmark} walks the configurations and restarts clusters until each
 *     has its kills;</li>
 *     <li>{@link io.ringwatch.perf.live.ClusterSession} is the kill plan of one cluster start (kills down to ⌈N/2⌉
 *     survivors, then one SIGTERM for a LEAVE);</li>
 *     <li>{@link io.ringwatch.perf.live.ConfigResult} holds the HdrHistograms and counts,
 *     {@link io.ringwatch.perf.live.DetectionReport} renders them as text, markdown and CSV.</li>
 * </ul>
 * Latencies are differences of {@code System.nanoTime()} stamps taken by different processes on one host: the
 * harness's just before the signal, the nodes' when their view changed. The harness's polling rate therefore only
 * sets how soon it moves on, not what it measures.
 */
package io.ringwatch.perf.live;
