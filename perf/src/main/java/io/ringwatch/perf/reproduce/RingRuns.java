package io.ringwatch.perf.reproduce;

import io.ringwatch.core.sim.SimResult;

import java.util.ArrayList;
import java.util.List;

/**
 * Aggregates of a batch of ring simulations at one n: means of the paper's three measures plus every checker
 * violation found, with its seed.
 */
public final class RingRuns
{
    final int n;
    final int runs;
    final double meanFirstKnownS;
    final double meanStabilizationS;
    final double maxStabilizationS;
    final double meanFailures;
    final double meanMessagesPerNode;
    final List<String> violations = new ArrayList<>();

    RingRuns(final int n, final List<SimResult> results)
    {
        this.n = n;
        this.runs = results.size();
        double firstKnown = 0;
        double stabilization = 0;
        double maxStab = 0;
        double failures = 0;
        double messages = 0;
        int measured = 0;
        for (final SimResult r : results)
        {
            violations.addAll(r.violations());
            violations.addAll(r.boundViolations());
            if (r.firstKnownNs() < 0 || r.stabilizationNs() < 0)
            {
                continue;
            }
            measured++;
            firstKnown += r.firstKnownNs() / 1e9;
            stabilization += r.stabilizationNs() / 1e9;
            maxStab = Math.max(maxStab, r.stabilizationNs() / 1e9);
            failures += r.failuresDuringStabilization();
            messages += (double)(r.heartbeatMessages() + r.newObserverMessages() + r.noticeMessages()) / n;
        }
        final int m = Math.max(1, measured);
        meanFirstKnownS = firstKnown / m;
        meanStabilizationS = stabilization / m;
        maxStabilizationS = maxStab;
        meanFailures = failures / m;
        meanMessagesPerNode = messages / m;
        if (measured < results.size())
        {
            violations.add("n=" + n + ": " + (results.size() - measured) + " run(s) had no measurable stabilization");
        }
    }
}
