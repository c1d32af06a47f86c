package io.ringwatch.transport.aeron.launch;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import io.ringwatch.transport.aeron.NodeCounter;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.status.CountersReader;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * A cluster of real node processes launched from this JVM, whichever the hosts: one host sharing one driver
 * ({@link LocalCluster}) or network-namespace hosts with a driver each ({@link NetnsCluster}). What a benchmark, the
 * nemesis or a test does with either: start it, kill and restart nodes, read their views and logs.
 * <p>
 * Ranks are placed on hosts {@code 0 .. hostCount() - 1}; one host is host 0. Times returned are
 * {@code System.nanoTime()} of this JVM, comparable with the times in the nodes' view files on the same machine.
 */
public interface LaunchedCluster extends AutoCloseable
{
    /**
     * @return timing, node count, JVM options and classpath of the cluster.
     */
    LocalCluster.Options options();

    /**
     * @return N, the number of nodes.
     */
    int size();

    /**
     * @return how many hosts the nodes are placed on.
     */
    int hostCount();

    /**
     * @param rank a node.
     * @return the host it runs on.
     */
    int hostOf(int rank);

    /**
     * @param host a host.
     * @return its Aeron directory: its driver's files and its nodes' slot, view and jitter files and journals.
     */
    File aeronDir(int host);

    /**
     * @param host a host.
     * @return what a command must run under to run on that host, e.g. {@code ip netns exec NAME}; empty for this
     * host's own network.
     */
    List<String> launcher(int host);

    /**
     * @return the cluster file given to the nodes.
     */
    File clusterFile();

    /**
     * Launch every node and release them together at the start barrier ({@code node --start-after}): each gets ready
     * (JVM started, classes loaded, driver connected) and waits at the barrier; once all are ready they start watching
     * at the same moment, their startup grace running from that release. Launching JVMs is the noisiest thing that
     * happens on a host (tens of ms of kernel and JIT work per JVM on two cores); with the barrier it happens before
     * anyone is judged.
     *
     * @throws InterruptedException if interrupted; the nodes started so far are destroyed.
     * @throws IllegalStateException if a node exits or is not ready within 120 s.
     */
    void start() throws InterruptedException;

    /**
     * Wait until every node has seen heartbeats from its emitter at least twice, the view has settled and the startup
     * grace, counted from the release at the start barrier, is over: from then on a kill is judged at once.
     *
     * @param timeoutMs how long to wait.
     * @return true if all are up.
     * @throws IllegalStateException if a node exited; the message holds its exit code and log.
     * @throws InterruptedException  if interrupted.
     */
    boolean awaitAllUp(long timeoutMs) throws InterruptedException;

    /**
     * SIGKILL a node.
     *
     * @param rank node.
     * @return {@code System.nanoTime()} just before the signal.
     */
    long kill(int rank);

    /**
     * Start a killed or exited node again with its first command line, on its host, as its supervisor would: it
     * joins under a new incarnation (start = join, no {@code --join} needed).
     *
     * @param rank a node whose process has exited or been killed.
     * @return {@code System.nanoTime()} just before the launch.
     * @throws InterruptedException if interrupted while the old process is reaped.
     */
    long restart(int rank) throws InterruptedException;

    /**
     * @param rank node.
     * @return its current process.
     */
    Process process(int rank);

    /**
     * @param rank node.
     * @return true while its current process runs.
     */
    boolean isAlive(int rank);

    /**
     * @param rank node.
     * @return the output of its current process so far, after that of its earlier lives.
     */
    String log(int rank);

    /**
     * Wait until every running node's view holds exactly {@code expectedDead}.
     *
     * @param expectedDead the dead set every running node must hold.
     * @param timeoutMs    how long to wait.
     * @return true once all agree.
     * @throws InterruptedException if interrupted.
     */
    boolean awaitViews(Set<Integer> expectedDead, long timeoutMs) throws InterruptedException;

    /**
     * @param rank node.
     * @return a fresh consistent snapshot of its view file (also readable after the process died).
     */
    ViewSnapshot view(int rank);

    /**
     * @param rank node.
     * @param into snapshot to fill.
     * @return {@code into} filled from the node's view file, or null while the node has not created it yet.
     */
    ViewSnapshot tryView(int rank, ViewSnapshot into);

    /**
     * @return every node's view, one line each with its host, and the exit code of those whose process has exited:
     * for failure messages and reports.
     */
    String describeViews();

    /**
     * @param labelPart    only counters whose label contains this ("" for all).
     * @param driverErrors also each driver's error log.
     * @return every host's non-zero ringwatch counters, read from the driver's CnC file while it runs: what a failure
     * message needs to tell a node that never sent from one whose frames were lost.
     */
    default String describeCounters(final String labelPart, final boolean driverErrors)
    {
        final StringBuilder sb = new StringBuilder();
        for (int h = 0; h < hostCount(); h++)
        {
            final File cnc = new File(aeronDir(h), CncFileDescriptor.CNC_FILE);
            sb.append("\nhost ").append(h).append(" counters (").append(cnc).append("):");
            if (!cnc.exists())
            {
                sb.append(" no CnC file");
                continue;
            }
            final MappedByteBuffer mapped = IoUtil.mapExistingFile(cnc, "cnc");
            try
            {
                final DirectBuffer meta = CncFileDescriptor.createMetaDataBuffer(mapped);
                final CountersReader counters = new CountersReader(
                    CncFileDescriptor.createCountersMetaDataBuffer(mapped, meta),
                    CncFileDescriptor.createCountersValuesBuffer(mapped, meta));
                counters.forEach((counterId, typeId, keyBuffer, label) ->
                {
                    final long value = counters.getCounterValue(counterId);
                    if (NodeCounter.isRingwatch(typeId) && value != 0 && label.contains(labelPart))
                    {
                        sb.append("\n  ").append(value).append(" - ").append(label);
                    }
                });
                if (driverErrors)
                {
                    final ByteArrayOutputStream errors = new ByteArrayOutputStream();
                    try (PrintStream out = new PrintStream(errors, true, StandardCharsets.UTF_8))
                    {
                        final int count = CommonContext.printErrorLog(
                            CncFileDescriptor.createErrorLogBuffer(mapped, meta), out);
                        sb.append("\n  driver errors: ").append(count).append('\n')
                            .append(errors.toString(StandardCharsets.UTF_8));
                    }
                }
            }
            finally
            {
                IoUtil.unmap(mapped);
            }
        }
        return sb.toString();
    }

    /**
     * Kill every node and driver and delete what the cluster created. Idempotent.
     */
    void close();
}
