/**
 * Heartbeats by one-sided RDMA WRITE through DiSNI: the emitter's NIC stores the counter straight into its
 * observer's registered slot, and the observer reads the slot with a plain load. No receive, no callback, no
 * CPU on the observer's side of the wire.
 * <p>
 * {@link io.ringwatch.transport.rdma.RdmaDevices} says whether this host can do it and, if not, exactly why.
 */
package io.ringwatch.transport.rdma;
