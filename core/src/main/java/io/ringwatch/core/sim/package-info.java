/**
 * A seeded discrete-event simulator that drives the real {@link io.ringwatch.core.protocol.DetectorNode} objects.
 */
package io.ringwatch.core.sim;
