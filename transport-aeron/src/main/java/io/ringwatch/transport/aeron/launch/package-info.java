/**
 * The launch kit: clusters of real node processes ({@code ringwatch.jar node}) and media drivers started from this
 * JVM, on this host or on network-namespace test hosts, for the {@code demo} command, the multi-process and
 * namespace tests and the {@code ringwatch-perf.jar} benchmarks and nemesis. Published for benchmarks and tests
 * (the process-level harness a tool built on Ringwatch would otherwise write again); it is not what a deployment
 * runs, which is the nodes themselves under a supervisor.
 * <ul>
 *     <li>{@link io.ringwatch.transport.aeron.launch.LaunchedCluster}: what every launched cluster offers (start,
 *     kill, restart, views, logs), whichever the hosts;</li>
 *     <li>{@link io.ringwatch.transport.aeron.launch.LocalCluster}: one host, one driver process;</li>
 *     <li>{@link io.ringwatch.transport.aeron.launch.NetnsCluster} over
 *     {@link io.ringwatch.transport.aeron.launch.NetnsHosts}: a driver per namespace host, with network faults;</li>
 *     <li>{@link io.ringwatch.transport.aeron.launch.ClusterDirectory}: where a cluster's files live;</li>
 *     <li>{@link io.ringwatch.transport.aeron.launch.FreePorts}: free UDP ports for its members;</li>
 *     <li>{@link io.ringwatch.transport.aeron.launch.NodeProcesses}: its node JVMs, their signals and logs (the
 *     driver's are package-private);</li>
 *     <li>{@link io.ringwatch.transport.aeron.launch.ChildProcesses}: ending a launched JVM that was asked to
 *     exit;</li>
 *     <li>{@link io.ringwatch.transport.aeron.launch.ClusterViews}: the nodes' view files, read from outside;</li>
 *     <li>{@link io.ringwatch.transport.aeron.launch.ClusterStart}: the start barrier and the close-once
 *     shutdown hook every launched cluster shares;</li>
 *     <li>{@link io.ringwatch.transport.aeron.launch.HostileTraffic}: unauthenticated floods of a node's ports.</li>
 * </ul>
 */
package io.ringwatch.transport.aeron.launch;
