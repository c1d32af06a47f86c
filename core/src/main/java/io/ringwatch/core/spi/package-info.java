/**
 * The seams between the pure protocol and its environment: heartbeat slots, control messages, application
 * callbacks. Simulator and live runtime each implement them; the protocol never sees which.
 */
package io.ringwatch.core.spi;
