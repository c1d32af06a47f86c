package io.ringwatch.perf.live;

import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Locale;

/**
 * Renders detection results: a block per configuration for the console, and the markdown and CSV tables.
 * Latencies are printed in milliseconds; an empty histogram prints as a dash.
 */
public final class DetectionReport
{
    private static final String[] CSV_HEADER = {
        "nodes", "timeout_ms", "heartbeat_ms", "profile", "transport", "kills", "missed", "false_positives", "false_positives_at_start",
        "unexpected_exits", "cluster_starts", "failed_starts",
        "detection_p50_ms", "detection_p90_ms", "detection_p99_ms", "detection_max_ms",
        "stabilization_p50_ms", "stabilization_p90_ms", "stabilization_p99_ms", "stabilization_max_ms",
        "leaves", "leaves_missed", "leave_p50_ms", "leave_max_ms", "wall_s", "not_run"};

    private DetectionReport()
    {
    }

    /**
     * @param result one configuration.
     * @return a few lines: latency percentiles and the error counts.
     */
    public static String block(final ConfigResult result)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("== ").append(result.label()).append(String.format(Locale.ROOT,
            ": %d kills (%d missed), %d false positives (%d at start), %d unexpected exits, " +
            "%d cluster starts (%d failed), %.0f s%n",
            result.kills(), result.missed(), result.falsePositives(), result.falsePositivesAtStart(),
            result.unexpectedExits(), result.clusterStarts(), result.failedStarts(), result.wallNs() / 1e9));
        sb.append(String.format(Locale.ROOT, "   %-28s %6s %9s %9s %9s %9s%n", "ms", "count", "p50", "p90", "p99",
            "max"));
        row(sb, "detection (kill→first)", result.detection());
        row(sb, "stabilization (kill→last)", result.stabilization());
        row(sb, "LEAVE (SIGTERM→last)", result.leave());
        for (final String note : result.notes())
        {
            sb.append("   note: ").append(note).append(System.lineSeparator());
        }
        return sb.toString();
    }

    private static void row(final StringBuilder sb, final String name, final Histogram h)
    {
        sb.append(String.format(Locale.ROOT, "   %-28s %6d %9s %9s %9s %9s%n", name, h.getTotalCount(),
            ms(h, 50), ms(h, 90), ms(h, 99), max(h)));
    }

    /**
     * @param results configurations measured.
     * @return the markdown table, one row per configuration.
     */
    public static String markdown(final List<ConfigResult> results)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("| config | kills | detection p50 / p99 / max (ms) | stabilization p50 / p99 / max (ms) | " +
            "LEAVE propagation p50 / max (ms) (n) | false positives | missed | cluster starts (failed) |\n");
        sb.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (final ConfigResult r : results)
        {
            if (r.notRun() != null)
            {
                sb.append("| ").append(r.label()).append(" | not run | – | – | – | – | – | 0 (0) |\n");
                continue;
            }
            sb.append("| ").append(r.label())
                .append(" | ").append(r.kills())
                .append(" | ").append(ms(r.detection(), 50)).append(" / ").append(ms(r.detection(), 99))
                .append(" / ").append(max(r.detection()))
                .append(" | ").append(ms(r.stabilization(), 50)).append(" / ").append(ms(r.stabilization(), 99))
                .append(" / ").append(max(r.stabilization()))
                .append(" | ").append(ms(r.leave(), 50)).append(" / ").append(max(r.leave()))
                .append(" (").append(r.leave().getTotalCount()).append(')')
                .append(" | ").append(r.falsePositives())
                .append(r.falsePositivesAtStart() > 0 ? " (" + r.falsePositivesAtStart() + " at start)" : "")
                .append(" | ").append(r.missed() + r.leavesMissed() > 0 ?
                    r.missed() + (r.leavesMissed() > 0 ? " (+" + r.leavesMissed() + " LEAVE)" : "") : "0")
                .append(" | ").append(r.clusterStarts()).append(" (").append(r.failedStarts()).append(')')
                .append(" |\n");
        }
        return sb.toString();
    }

    /**
     * @param results configurations measured.
     * @return CSV with a header line; empty latencies are empty fields.
     */
    public static String csv(final List<ConfigResult> results)
    {
        final StringBuilder sb = new StringBuilder(String.join(",", CSV_HEADER)).append('\n');
        for (final ConfigResult r : results)
        {
            final DetectionConfig c = r.config();
            final Object[] fields = {
                c.nodes(), c.suspicionTimeoutNs() / 1e6, c.heartbeatPeriodNs() / 1e6,
                c.profile() + (r.sharedThread() ? "-shared" : ""),
                c.transport().name().toLowerCase(Locale.ROOT), r.kills(), r.missed(), r.falsePositives(),
                r.falsePositivesAtStart(), r.unexpectedExits(), r.clusterStarts(), r.failedStarts(),
                csvMs(r.detection(), 50), csvMs(r.detection(), 90), csvMs(r.detection(), 99), csvMs(r.detection(), 100),
                csvMs(r.stabilization(), 50), csvMs(r.stabilization(), 90), csvMs(r.stabilization(), 99),
                csvMs(r.stabilization(), 100), r.leaves(), r.leavesMissed(), csvMs(r.leave(), 50),
                csvMs(r.leave(), 100), String.format(Locale.ROOT, "%.1f", r.wallNs() / 1e9),
                r.notRun() == null ? "" : r.notRun().replace(',', ';')};
            for (int i = 0; i < fields.length; i++)
            {
                sb.append(i == 0 ? "" : ",").append(fields[i]);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String ms(final Histogram h, final double percentile)
    {
        return h.getTotalCount() == 0 ? "–" : format(h.getValueAtPercentile(percentile));
    }

    private static String max(final Histogram h)
    {
        return h.getTotalCount() == 0 ? "–" : format(h.getMaxValue());
    }

    private static String csvMs(final Histogram h, final double percentile)
    {
        if (h.getTotalCount() == 0)
        {
            return "";
        }
        return format(percentile >= 100 ? h.getMaxValue() : h.getValueAtPercentile(percentile));
    }

    private static String format(final long ns)
    {
        return String.format(Locale.ROOT, ns < 10_000_000L ? "%.3f" : "%.1f", ns / 1e6);
    }
}
