/**
 * Wire frames as little-endian flyweights over Agrona buffers: HEARTBEAT, NEW_OBSERVER, FAILURE_NOTICE, LEAVE.
 */
package io.ringwatch.core.codec;
