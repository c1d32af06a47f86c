package io.ringwatch.perf.live;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;

/**
 * What one configuration measured: latencies in nanoseconds (auto-resizing, 3 significant digits) and the counts
 * of everything that went wrong.
 */
public final class ConfigResult
{
    private static final int MAX_NOTES = 5;
    private static final int MAX_LOG = 10_000;
    private static final int MAX_NOTE_LENGTH = 160;

    private final DetectionConfig config;
    private final Histogram detection = new Histogram(3);
    private final Histogram stabilization = new Histogram(3);
    private final Histogram leave = new Histogram(3);
    private final List<String> notes = new ArrayList<>();
    private final List<String> log = new ArrayList<>();
    private String notRun;
    private boolean sharedThread;
    private int kills;
    private int missed;
    private int falsePositives;
    private int leaves;
    private int leavesMissed;
    private int clusterStarts;
    private int failedStarts;
    private int unexpectedExits;
    private int falsePositivesAtStart;
    private int startsWithoutKill;
    private long wallNs;

    /**
     * @param config the configuration measured.
     */
    public ConfigResult(final DetectionConfig config)
    {
        this.config = config;
    }

    void recordKill(final long detectionNs, final long stabilizationNs)
    {
        kills++;
        startsWithoutKill = 0;
        // ClusterSession counts a death stamped before its signal as a false positive; the clamp is a safeguard
        detection.recordValue(Math.max(0, detectionNs));
        stabilization.recordValue(Math.max(0, stabilizationNs));
    }

    void recordMissedKill(final String why)
    {
        kills++;
        missed++;
        note(why);
    }

    void recordLeave(final long propagationNs)
    {
        leaves++;
        leave.recordValue(Math.max(0, propagationNs));
    }

    void recordMissedLeave(final String why)
    {
        leaves++;
        leavesMissed++;
        note(why);
    }

    void recordFalsePositive(final String what)
    {
        falsePositives++;
        note(what);
    }

    void recordSessionError(final String what)
    {
        note(what);
    }

    void recordFalsePositivesAtStart(final int count)
    {
        falsePositives += count;
        falsePositivesAtStart += count;
    }

    void recordExit(final String what)
    {
        unexpectedExits++;
        note(what);
    }

    void recordStart(final boolean ok, final String why)
    {
        clusterStarts++;
        startsWithoutKill++;
        if (!ok)
        {
            failedStarts++;
            note(why);
        }
    }

    /**
     * @param why the configuration was refused before any cluster start, e.g. more busy-spinning agents than cores.
     */
    void recordNotRun(final String why)
    {
        notRun = why;
        note("not run: " + why);
    }

    /**
     * The nodes run on one shared busy-spinning thread in the harness JVM, not as processes.
     */
    void recordSharedThread()
    {
        sharedThread = true;
    }

    /**
     * @param hosting how the nodes ran, noted once per configuration.
     */
    void recordHosting(final String hosting)
    {
        if (hosting != null && !log.contains(hosting))
        {
            note(hosting);
        }
    }

    /**
     * @return true if the nodes shared one spinning thread in the harness JVM.
     */
    public boolean sharedThread()
    {
        return sharedThread;
    }

    /**
     * @return the configuration's label, marked when its nodes shared one thread.
     */
    public String label()
    {
        return config.label() + (sharedThread ? " (shared thread)" : "");
    }

    /**
     * @return why the configuration was not run, or null if it ran.
     */
    public String notRun()
    {
        return notRun;
    }

    void addWallNs(final long ns)
    {
        wallNs += ns;
    }

    private void note(final String text)
    {
        if (log.size() < MAX_LOG)
        {
            log.add(text);
        }
        if (notes.size() < MAX_NOTES)
        {
            notes.add(text.length() > MAX_NOTE_LENGTH ? text.substring(0, MAX_NOTE_LENGTH) + "…" : text);
        }
    }

    /**
     * @return the configuration.
     */
    public DetectionConfig config()
    {
        return config;
    }

    /**
     * @return kill to first survivor knowing, per kill every survivor learned of.
     */
    public Histogram detection()
    {
        return detection;
    }

    /**
     * @return kill to last survivor knowing, per kill every survivor learned of.
     */
    public Histogram stabilization()
    {
        return stabilization;
    }

    /**
     * @return SIGTERM to last survivor knowing of the LEAVE.
     */
    public Histogram leave()
    {
        return leave;
    }

    /**
     * @return SIGKILLs made, missed ones included.
     */
    public int kills()
    {
        return kills;
    }

    /**
     * @return kills not known by every survivor within the miss timeout.
     */
    public int missed()
    {
        return missed;
    }

    /**
     * @return live nodes some survivor declared dead (each counted once per cluster start), during start included.
     */
    public int falsePositives()
    {
        return falsePositives;
    }

    /**
     * @return SIGTERMs made.
     */
    public int leaves()
    {
        return leaves;
    }

    /**
     * @return LEAVEs not known by every survivor within the miss timeout.
     */
    public int leavesMissed()
    {
        return leavesMissed;
    }

    /**
     * @return clusters launched.
     */
    public int clusterStarts()
    {
        return clusterStarts;
    }

    /**
     * @return clusters that never came up (a node died or was declared dead during start, or the start timed out).
     */
    public int failedStarts()
    {
        return failedStarts;
    }

    /**
     * @return live nodes declared dead while the cluster was starting (included in {@link #falsePositives()}).
     */
    public int falsePositivesAtStart()
    {
        return falsePositivesAtStart;
    }

    /**
     * @return cluster starts since the last kill every survivor learned of (the current one included).
     */
    public int startsWithoutKill()
    {
        return startsWithoutKill;
    }

    /**
     * @return nodes that exited without being signalled (fenced after a false positive, or lost their driver).
     */
    public int unexpectedExits()
    {
        return unexpectedExits;
    }

    /**
     * @return time spent on this configuration.
     */
    public long wallNs()
    {
        return wallNs;
    }

    /**
     * @return everything that went wrong, in order, whole (up to 10,000 entries), for the notes file.
     */
    public List<String> log()
    {
        return log;
    }

    /**
     * @return the first few things that went wrong, for the report.
     */
    public List<String> notes()
    {
        return notes;
    }
}
