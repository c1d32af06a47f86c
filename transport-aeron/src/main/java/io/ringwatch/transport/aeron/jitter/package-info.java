/**
 * A node's jitter file ({@link io.ringwatch.transport.aeron.RingwatchContext#jitterFile(boolean)}), read from any
 * local process while the node runs or after it stopped: how late each heartbeat left, how long each duty cycle took
 * and how long the agent idled, as log-linear histograms.
 * <ul>
 *     <li>{@link io.ringwatch.transport.aeron.jitter.JitterLayout}: the file's layout and where it lives;</li>
 *     <li>{@link io.ringwatch.transport.aeron.jitter.JitterReader}: maps it and takes snapshots;</li>
 *     <li>{@link io.ringwatch.transport.aeron.jitter.JitterSnapshot}: one histogram's counts, with percentiles and
 *     the difference of two snapshots;</li>
 *     <li>{@link io.ringwatch.transport.aeron.jitter.LogLinearBuckets}: the bucket arithmetic reader and writer
 *     share.</li>
 * </ul>
 * Published, as the view file's readers ({@code io.ringwatch.transport.aeron.view}) are, for benchmarks and tools;
 * the writer, on the agent thread, is internal.
 */
package io.ringwatch.transport.aeron.jitter;
