/**
 * Heartbeats by one-sided RDMA WRITE: the emitter's NIC stores the counter straight into its observer's registered
 * slot, and the observer reads the slot with a plain acquire load. No receive, no callback, no CPU on the
 * observer's side of the wire.
 * <p>
 * {@link io.ringwatch.transport.rdma.RdmaHeartbeats} is what the runtime uses: the core's heartbeat channel plus
 * the connection logic (pre-connected successors, reconnection, counters). It talks to the hardware through the
 * {@link io.ringwatch.transport.rdma.RdmaVerbs} seam, implemented by {@link io.ringwatch.transport.rdma.DisniVerbs}.
 * {@link io.ringwatch.transport.rdma.RdmaDevices} says whether this host can do it and, if not, exactly why;
 * {@link io.ringwatch.transport.rdma.RdmaEndpoint} parses the cluster file's {@code rdma=host:port} column.
 */
package io.ringwatch.transport.rdma;
