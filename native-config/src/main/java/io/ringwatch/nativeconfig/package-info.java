/**
 * The host around a Ringwatch node: which cores it may use and pin to, whether the kernel and limits suit a
 * low-latency agent, which RDMA devices and native libraries exist, which tuning profile fits, and a
 * {@link io.ringwatch.nativeconfig.Doctor} that reports all of it.
 * <p>
 * Parsers take file contents as strings so they can be tested from fixtures; {@link
 * io.ringwatch.nativeconfig.HostFiles} is the only class that touches {@code /proc} and {@code /sys}.
 */
package io.ringwatch.nativeconfig;
