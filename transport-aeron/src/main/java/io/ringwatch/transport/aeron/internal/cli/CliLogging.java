package io.ringwatch.transport.aeron.internal.cli;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * How {@code ringwatch.jar} prints what its components log through {@link System.Logger}: one line per record,
 * {@code 2026-11-27T22:17:16.123Z INFO  mono=84211.123456789 message}, wall clock with its zone (for matching
 * against other hosts and tools) beside the monotonic clock the view files and counters use (for intervals on this
 * host), on standard error.
 * <p>
 * Only when nobody configured logging: a {@code -Djava.util.logging.config.file}, {@code ...config.class} or a
 * {@link System.LoggerFinder} of the user's (slf4j-jdk-platform-logging, log4j-jpl) takes over, and the loggers to
 * configure are {@code io.ringwatch.*}. The library itself only logs; this is the executable's choice.
 */
public final class CliLogging
{
    /** Parent of every ringwatch logger. */
    static final String ROOT = "io.ringwatch";

    private static final DateTimeFormatter WALL_CLOCK =
        DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneId.systemDefault());
    // JUL loggers are held weakly: configured ones must stay referenced
    private static Logger configured;

    private CliLogging()
    {
    }

    /**
     * Route {@code io.ringwatch.*} records to one-line output on standard error, unless logging is configured.
     */
    static void install()
    {
        if (System.getProperty("java.util.logging.config.file") != null ||
            System.getProperty("java.util.logging.config.class") != null)
        {
            return;
        }
        if (System.getProperty("java.util.logging.manager") == null)
        {
            // before the first logger: the default manager drops every handler when shutdown starts, and the lines
            // a node writes while it leaves on SIGTERM come after that
            System.setProperty("java.util.logging.manager", KeepHandlersAtShutdown.class.getName());
        }
        final Logger logger = Logger.getLogger(ROOT);
        logger.setUseParentHandlers(false);
        logger.addHandler(new OneLineHandler(System.err));
        configured = logger;
    }

    /**
     * @param instant   wall-clock time.
     * @param monoNs    {@link System#nanoTime()} then.
     * @param level     level name.
     * @param message   the message.
     * @return the line, without its line separator.
     */
    static String line(final Instant instant, final long monoNs, final String level, final String message)
    {
        return WALL_CLOCK.format(instant) + " " + String.format("%-5s", level) + " mono=" + mono(monoNs) + " " +
            message;
    }

    /**
     * @param monoNs a {@link System#nanoTime()} value.
     * @return it in seconds with nine decimals, as log lines print the monotonic clock.
     */
    static String mono(final long monoNs)
    {
        return Long.toString(monoNs / 1_000_000_000L) + "." + String.format("%09d", monoNs % 1_000_000_000L);
    }

    /**
     * @param level a JUL level, as System.Logger levels map to it.
     * @return the System.Logger name of it.
     */
    static String levelName(final Level level)
    {
        final int value = level.intValue();
        return value >= Level.SEVERE.intValue() ? "ERROR" : value >= Level.WARNING.intValue() ? "WARN" :
            value >= Level.INFO.intValue() ? "INFO" : value >= Level.FINE.intValue() ? "DEBUG" : "TRACE";
    }

    private static final class OneLineHandler extends Handler
    {
        private final PrintStream out;

        OneLineHandler(final PrintStream out)
        {
            this.out = out;
            setFormatter(new OneLineFormatter());
        }

        public synchronized void publish(final LogRecord record)
        {
            if (isLoggable(record))
            {
                out.print(getFormatter().format(record));
                out.flush();
            }
        }

        public void flush()
        {
            out.flush();
        }

        public void close()
        {
            // standard error is not ours to close
            out.flush();
        }
    }

    private static final class OneLineFormatter extends Formatter
    {
        public String format(final LogRecord record)
        {
            final StringBuilder line = new StringBuilder(line(record.getInstant(), System.nanoTime(),
                levelName(record.getLevel()), formatMessage(record))).append(System.lineSeparator());
            if (record.getThrown() != null)
            {
                final java.io.StringWriter trace = new java.io.StringWriter();
                record.getThrown().printStackTrace(new java.io.PrintWriter(trace));
                line.append(trace);
            }
            return line.toString();
        }
    }

    /**
     * A {@link LogManager} that keeps its handlers when the JVM shuts down, so a node stopping on SIGTERM still
     * logs its last lines. Everything else is the default manager's.
     */
    public static final class KeepHandlersAtShutdown extends LogManager
    {
        /**
         * Made by {@link LogManager} from the {@code java.util.logging.manager} property.
         */
        public KeepHandlersAtShutdown()
        {
        }

        /**
         * {@inheritDoc}
         */
        public void reset()
        {
            // the default manager's shutdown hook is a thread class nested in LogManager; everyone else resets
            if (Thread.currentThread().getClass().getEnclosingClass() != LogManager.class)
            {
                super.reset();
            }
        }
    }
}
