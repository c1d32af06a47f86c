/**
 * JMH micro-benchmarks of the protocol's hot paths: the duty cycle, the broadcast schedule, the wire codecs and
 * duplicate-notice handling. Each measures one call on state prepared in {@code @Setup}, checks in
 * {@code @TearDown} that the fixture did what it claims (no spurious suspicion, no forwarding of a duplicate), and
 * is meant to be run with {@code -prof gc}: {@code gc.alloc.rate.norm} must stay at 0 B/op.
 * <p>
 * Run from the shaded jar, e.g.
 * {@code java -cp perf/target/ringwatch-perf.jar org.openjdk.jmh.Main 'io.ringwatch.perf.jmh' -prof gc}.
 */
package io.ringwatch.perf.jmh;
