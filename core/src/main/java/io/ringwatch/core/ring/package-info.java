/**
 * The observation ring of paper 002: who watches whom, given a node's view of the dead. Pure arithmetic over ranks,
 * shared by the protocol (FindEmitter, the probes' walks) and the RDMA transport (the successors it keeps connected).
 */
package io.ringwatch.core.ring;
