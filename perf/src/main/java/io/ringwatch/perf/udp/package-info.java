/**
 * How an observer should learn that a UDP heartbeat arrived: measured, not assumed.
 */
package io.ringwatch.perf.udp;
