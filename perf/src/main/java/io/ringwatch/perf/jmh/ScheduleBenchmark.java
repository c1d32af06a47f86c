package io.ringwatch.perf.jmh;

import io.ringwatch.core.broadcast.BinomialGraphSchedule;
import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.spi.RankArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Computing a node's forwarding targets for one broadcast, as every node does on first receipt of a notice.
 * <p>
 * Invocations cycle through {@value #PAIRS} random (self, source) pairs of participants so neither the labels nor
 * the branches are the same call after call; the excluded ranks D_msg are scattered at random over the cluster.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class ScheduleBenchmark
{
    private static final int PAIRS = 1024;
    private static final long SEED = 0x5EEDL;

    /** Schedule under test: the double hypercube of paper 002 or the binomial graph of paper 001. */
    @Param({"doubleHypercube", "binomialGraph"})
    String schedule;

    @Param({"1024", "262144"})
    int clusterSize;

    @Param({"0", "16"})
    int excludedCount;

    private BroadcastSchedule broadcastSchedule;
    private final RankArray excluded = new RankArray(16);
    private final int[] selves = new int[PAIRS];
    private final int[] sources = new int[PAIRS];
    private int[] out;
    private int next;

    @Setup
    public void setUp()
    {
        broadcastSchedule = newSchedule(schedule);
        out = new int[broadcastSchedule.maxFanout(clusterSize)];

        final SplittableRandom random = new SplittableRandom(SEED);
        while (excluded.size() < excludedCount)
        {
            excluded.add(random.nextInt(clusterSize));
        }
        for (int i = 0; i < PAIRS; i++)
        {
            selves[i] = randomParticipant(random);
            sources[i] = randomParticipant(random);
        }
    }

    @Benchmark
    public int neighbours()
    {
        final int i = next++ & (PAIRS - 1);
        return broadcastSchedule.neighbours(selves[i], sources[i], excluded, clusterSize, out);
    }

    private int randomParticipant(final SplittableRandom random)
    {
        int rank;
        do
        {
            rank = random.nextInt(clusterSize);
        }
        while (excluded.contains(rank));
        return rank;
    }

    private static BroadcastSchedule newSchedule(final String name)
    {
        switch (name)
        {
            case "doubleHypercube":
                return new DoubleHypercubeSchedule();

            case "binomialGraph":
                return new BinomialGraphSchedule();

            default:
                throw new IllegalArgumentException("unknown schedule: " + name);
        }
    }
}
