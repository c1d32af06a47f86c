package io.ringwatch.perf.noise;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Every pair measured for one configuration, and what follows from them.
 */
public final class ConfigOutcome
{
    private final NoiseConfig config;
    private final List<PairResult> pairs = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private String notRun;
    private boolean sharedThread;
    private double loadAtStart = Double.NaN;
    private double loadAtEnd = Double.NaN;
    private String warmUp;

    ConfigOutcome(final NoiseConfig config)
    {
        this.config = config;
    }

    NoiseConfig config()
    {
        return config;
    }

    void add(final PairResult pair)
    {
        pairs.add(pair);
    }

    List<PairResult> pairs()
    {
        return pairs;
    }

    void note(final String note)
    {
        if (!notes.contains(note) && notes.size() < 20)
        {
            notes.add(note);
        }
    }

    List<String> notes()
    {
        return notes;
    }

    void notRun(final String why)
    {
        this.notRun = why;
    }

    String notRun()
    {
        return notRun;
    }

    /**
     * @param curve steady state: what the detector's threads on the application's cores did while it warmed.
     */
    void warmUp(final String curve)
    {
        this.warmUp = curve;
    }

    String warmUp()
    {
        return warmUp;
    }

    void sharedThread(final boolean shared)
    {
        this.sharedThread = shared;
    }

    boolean sharedThread()
    {
        return sharedThread;
    }

    void loads(final double atStart, final double atEnd)
    {
        this.loadAtStart = atStart;
        this.loadAtEnd = atEnd;
    }

    double loadAtStart()
    {
        return loadAtStart;
    }

    double loadAtEnd()
    {
        return loadAtEnd;
    }

    /**
     * @return e.g. the label, with "(shared thread)" when the low-latency agents shared one spinning thread.
     */
    String label()
    {
        return config.label() + (sharedThread ? " (shared thread)" : "");
    }

    /**
     * @return what every detector thread did, summed over the valid pairs' B windows.
     */
    ThreadActivity threads()
    {
        final ThreadActivity sum = new ThreadActivity();
        for (final PairResult p : pairs)
        {
            if (p.valid() && p.window() != null)
            {
                sum.add(p.window().threads());
            }
        }
        return sum;
    }

    long validPairs()
    {
        return pairs.stream().filter(PairResult::valid).count();
    }

    long invalidPairs()
    {
        return pairs.size() - validPairs();
    }

    NoiseStats.Interval dgemm()
    {
        return interval(PairResult::dgemmSlowdown);
    }

    NoiseStats.Interval hpl()
    {
        return interval(PairResult::hplSlowdown);
    }

    NoiseStats.Interval fwq()
    {
        return interval(PairResult::fwqSlowdown);
    }

    NoiseStats.Interval fwqExcess()
    {
        return interval(PairResult::fwqExcessEventsPerSecond);
    }

    /**
     * @return mean over valid pairs of a per-pair quantity, with its interval; pairs where it is NaN are left out.
     */
    NoiseStats.Interval interval(final ToDoubleFunction<PairResult> quantity)
    {
        return NoiseStats.meanWithInterval(pairs.stream().filter(PairResult::valid).mapToDouble(quantity)
            .filter(v -> !Double.isNaN(v)).toArray());
    }

    /**
     * @param baseline true for the A sides, false for B.
     * @return all valid pairs' FWQ quanta of that side, merged.
     */
    Histogram fwqPooled(final boolean baseline)
    {
        final Histogram pooled = NoiseStats.newHistogram();
        for (final PairResult p : pairs)
        {
            final Measurement m = baseline ? p.a() : p.b();
            if (p.valid() && m.fwq() != null)
            {
                pooled.add(m.fwq());
            }
        }
        return pooled;
    }

    Histogram emissionPooled()
    {
        final Histogram pooled = NoiseStats.newHistogram();
        pairs.stream().filter(PairResult::valid).forEach(p -> pooled.add(p.window().emission()));
        return pooled;
    }

    Histogram dutyCyclePooled()
    {
        final Histogram pooled = NoiseStats.newHistogram();
        pairs.stream().filter(PairResult::valid).forEach(p -> pooled.add(p.window().dutyCycle()));
        return pooled;
    }

    /**
     * @return wake-ups from sleep per second of one of this host's agents, over the valid pairs' B windows.
     */
    double wakeUpsPerNodeSecond()
    {
        final double nodeSeconds = pairs.stream().filter(PairResult::valid).mapToDouble(p -> p.window().nodeSeconds())
            .sum();
        final long wakeUps = pairs.stream().filter(PairResult::valid).mapToLong(p -> p.window().wakeUps()).sum();
        return nodeSeconds > 0 ? wakeUps / nodeSeconds : Double.NaN;
    }

    double meanOf(final ToDoubleFunction<Measurement> value, final boolean baseline)
    {
        return pairs.stream().filter(PairResult::valid).map(p -> baseline ? p.a() : p.b()).mapToDouble(value)
            .filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
    }
}
