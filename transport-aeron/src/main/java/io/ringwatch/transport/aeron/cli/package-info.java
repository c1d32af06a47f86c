/**
 * The command-line parser the {@code ringwatch.jar} and {@code ringwatch-perf.jar} commands share
 * ({@link io.ringwatch.transport.aeron.cli.Args}) and the exception a bad command line raises
 * ({@link io.ringwatch.transport.aeron.cli.UsageException}). Published for tools and benchmarks built on Ringwatch, so
 * that their options read, fail and are renamed as the runtime's do; the commands themselves are internal.
 */
package io.ringwatch.transport.aeron.cli;
