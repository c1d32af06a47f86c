/**
 * A local cluster of real node processes on this host, launched for the {@code demo} command, the multi-process
 * tests and the detection benchmarks.
 * <ul>
 *     <li>{@link io.ringwatch.transport.aeron.internal.launch.LocalCluster}: the facade that composes the parts below;</li>
 *     <li>{@link io.ringwatch.transport.aeron.internal.launch.ClusterDirectory}: where the cluster's files live;</li>
 *     <li>{@link io.ringwatch.transport.aeron.internal.launch.FreePorts}: free UDP ports for its members;</li>
 *     <li>{@link io.ringwatch.transport.aeron.internal.launch.DriverProcess} and
 *     {@link io.ringwatch.transport.aeron.internal.launch.NodeProcesses}: its JVMs, their signals and logs;</li>
 *     <li>{@link io.ringwatch.transport.aeron.internal.launch.ChildProcesses}: ending a launched JVM that was asked to
 *     exit;</li>
 *     <li>{@link io.ringwatch.transport.aeron.internal.launch.ClusterViews}: the nodes' view files, read from outside.</li>
 *     <li>{@link io.ringwatch.transport.aeron.internal.launch.ClusterStart}: the start barrier and the close-once
 *     shutdown hook every launched cluster shares.</li>
 * </ul>
 */
package io.ringwatch.transport.aeron.internal.launch;
