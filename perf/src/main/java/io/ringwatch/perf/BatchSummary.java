package io.ringwatch.perf;

import io.ringwatch.core.sim.SimResult;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Aggregate of a batch of runs, folded in run order. Percentiles are exact (nearest rank over sorted values).
 */
final class BatchSummary
{
    static final int VIOLATIONS_SHOWN = 20;

    final int runs;
    final long violations;
    final int runsWithViolations;
    final long boundViolations;
    final int boundChecked;
    final long maxBoundNs;
    final long[] stabilizationNs;
    final long[] firstKnownNs;
    final long[] firstBroadcastNs;
    final int maxFailuresDuringStabilization;
    final double meanFailuresDuringStabilization;
    final long heartbeats;
    final long newObservers;
    final long notices;
    final long leaves;
    final long lost;
    final long events;
    final long exclusions;
    final long fencesSent;
    final int runsWithSplitBrain;
    final long majorityLost;
    final long restarts;
    final long rejoined;
    final long reforms;
    final long boots;
    final int graceChecked;
    final long joinSpreadMaxNs;
    final long[] minorityFenceNs;
    final long probes;
    final List<String> shownViolations = new ArrayList<>();

    BatchSummary(final SimResult[] results)
    {
        runs = results.length;
        long violationCount = 0;
        int withViolations = 0;
        long boundCount = 0;
        int checked = 0;
        long bound = 0;
        final long[] stabilization = new long[runs];
        final long[] firstKnown = new long[runs];
        final long[] firstBroadcast = new long[runs];
        int broadcasts = 0;
        int stabilized = 0;
        int known = 0;
        int maxFailures = 0;
        long failureSum = 0;
        long hb = 0;
        long no = 0;
        long nt = 0;
        long lv = 0;
        long ls = 0;
        long ev = 0;
        long ex = 0;
        long fences = 0;
        int splitBrain = 0;
        long lostFromMajority = 0;
        long restarted = 0;
        long admitted = 0;
        long reformed = 0;
        long booted = 0;
        int grace = 0;
        long spreadMaxNs = -1;
        final long[] minorityFence = new long[runs];
        int fenced = 0;
        long pr = 0;

        for (final SimResult result : results)
        {
            violationCount += result.violations().size();
            boundCount += result.boundViolations().size();
            if (!result.violations().isEmpty())
            {
                withViolations++;
            }
            for (final String v : result.violations())
            {
                addShown(v);
            }
            for (final String v : result.boundViolations())
            {
                addShown(v);
            }
            if (result.boundNs() >= 0)
            {
                checked++;
                bound = Math.max(bound, result.boundNs());
            }
            if (result.stabilizationNs() >= 0)
            {
                stabilization[stabilized++] = result.stabilizationNs();
            }
            if (result.firstKnownNs() >= 0)
            {
                firstKnown[known++] = result.firstKnownNs();
            }
            if (result.firstBroadcastNs() >= 0)
            {
                firstBroadcast[broadcasts++] = result.firstBroadcastNs();
            }
            maxFailures = Math.max(maxFailures, result.failuresDuringStabilization());
            failureSum += result.failuresDuringStabilization();
            hb += result.heartbeatMessages();
            no += result.newObserverMessages();
            nt += result.noticeMessages();
            lv += result.leaveMessages();
            ls += result.lostMessages();
            ev += result.eventsProcessed();
            ex += result.exclusions();
            fences += result.fencesSent();
            splitBrain += result.splitBrainPairs() > 0 ? 1 : 0;
            lostFromMajority += result.majorityLost();
            restarted += result.restarts();
            admitted += result.rejoined();
            reformed += result.reforms();
            booted += result.boots();
            grace += result.graceChecked() ? 1 : 0;
            spreadMaxNs = Math.max(spreadMaxNs, result.joinSpreadMaxNs());
            if (result.minorityFenceNs() >= 0)
            {
                minorityFence[fenced++] = result.minorityFenceNs();
            }
            pr += result.probeMessages();
        }

        violations = violationCount;
        runsWithViolations = withViolations;
        boundViolations = boundCount;
        boundChecked = checked;
        maxBoundNs = bound;
        stabilizationNs = Arrays.copyOf(stabilization, stabilized);
        Arrays.sort(stabilizationNs);
        firstKnownNs = Arrays.copyOf(firstKnown, known);
        Arrays.sort(firstKnownNs);
        firstBroadcastNs = Arrays.copyOf(firstBroadcast, broadcasts);
        Arrays.sort(firstBroadcastNs);
        maxFailuresDuringStabilization = maxFailures;
        meanFailuresDuringStabilization = runs == 0 ? 0 : (double)failureSum / runs;
        heartbeats = hb;
        newObservers = no;
        notices = nt;
        leaves = lv;
        lost = ls;
        events = ev;
        exclusions = ex;
        fencesSent = fences;
        runsWithSplitBrain = splitBrain;
        majorityLost = lostFromMajority;
        restarts = restarted;
        rejoined = admitted;
        reforms = reformed;
        boots = booted;
        graceChecked = grace;
        joinSpreadMaxNs = spreadMaxNs;
        minorityFenceNs = Arrays.copyOf(minorityFence, fenced);
        Arrays.sort(minorityFenceNs);
        probes = pr;
    }

    private void addShown(final String violation)
    {
        if (shownViolations.size() < VIOLATIONS_SHOWN)
        {
            shownViolations.add(violation);
        }
    }

    static double mean(final long[] sorted)
    {
        if (sorted.length == 0)
        {
            return Double.NaN;
        }
        double sum = 0;
        for (final long v : sorted)
        {
            sum += v;
        }
        return sum / sorted.length;
    }

    /**
     * @param sorted     ascending values.
     * @param percentile in (0, 100].
     * @return nearest-rank percentile, or -1 if there are no values.
     */
    static long percentile(final long[] sorted, final double percentile)
    {
        if (sorted.length == 0)
        {
            return -1;
        }
        final int rank = (int)Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    static long max(final long[] sorted)
    {
        return sorted.length == 0 ? -1 : sorted[sorted.length - 1];
    }

    static String ms(final double ns)
    {
        return Double.isNaN(ns) || ns < 0 ? "null" : String.format(Locale.ROOT, "%.3f", ns / 1e6);
    }
}
