/**
 * The 64-byte heartbeat slot shared by every transport that carries heartbeats as memory writes (RDMA WRITE,
 * a shared-memory slot file, a UDP receiver depositing frames): layout, word packing and access ordering.
 */
package io.ringwatch.core.slot;
