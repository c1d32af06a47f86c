package io.ringwatch.core.process;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The job's global process identity: application ranks {@code 0..P-1} laid out in blocks over the node ranks, node
 * {@code r} hosting ranks {@code firstProcess(r) .. firstProcess(r) + processesOn(r) - 1} at local indexes from 0.
 * Every daemon builds the same layout from the same job description, so a rank means the same process everywhere and
 * a node's death names its processes without a message saying which. Immutable.
 */
public final class JobLayout
{
    /** Most application processes a job may have. */
    public static final int MAX_PROCESSES = 1 << 24;

    private final int[] firstProcess;
    private final int uniform;

    private JobLayout(final int[] counts)
    {
        firstProcess = new int[counts.length + 1];
        long total = 0;
        boolean same = true;
        for (int node = 0; node < counts.length; node++)
        {
            if (counts[node] < 0)
            {
                throw new IllegalArgumentException("node " + node + " hosts " + counts[node] + " processes");
            }
            firstProcess[node] = (int)total;
            total += counts[node];
            if (total > MAX_PROCESSES)
            {
                throw new IllegalArgumentException("more than " + MAX_PROCESSES + " processes");
            }
            same &= counts[node] == counts[0];
        }
        firstProcess[counts.length] = (int)total;
        uniform = same && counts.length > 0 && counts[0] > 0 ? counts[0] : 0;
    }

    /**
     * @param nodes           node ranks.
     * @param processesPerNode processes each node hosts, at least 0.
     * @return a layout with the same number of processes on every node.
     */
    public static JobLayout uniform(final int nodes, final int processesPerNode)
    {
        final int[] counts = new int[nodes];
        Arrays.fill(counts, processesPerNode);
        return new JobLayout(counts);
    }

    /**
     * @param processesOnNode processes hosted by each node rank, in rank order.
     * @return the layout.
     */
    public static JobLayout of(final int... processesOnNode)
    {
        return new JobLayout(processesOnNode.clone());
    }

    /**
     * @return node ranks N.
     */
    public int nodeCount()
    {
        return firstProcess.length - 1;
    }

    /**
     * @return application processes P.
     */
    public int processCount()
    {
        return firstProcess[firstProcess.length - 1];
    }

    /**
     * @param node a node rank.
     * @return the application rank of its local index 0.
     */
    public int firstProcess(final int node)
    {
        return firstProcess[node];
    }

    /**
     * @param node a node rank.
     * @return how many processes it hosts.
     */
    public int processesOn(final int node)
    {
        return firstProcess[node + 1] - firstProcess[node];
    }

    /**
     * @param node       a node rank.
     * @param localIndex index among that node's processes.
     * @return the application rank.
     */
    public int process(final int node, final int localIndex)
    {
        if (localIndex < 0 || localIndex >= processesOn(node))
        {
            throw new IllegalArgumentException("node " + node + " has no local process " + localIndex);
        }
        return firstProcess[node] + localIndex;
    }

    /**
     * @param process an application rank in {@code [0, P)}.
     * @return the node hosting it; O(1) for uniform layouts, O(log N) otherwise.
     */
    public int nodeOf(final int process)
    {
        if (uniform != 0)
        {
            return process / uniform;
        }
        // the last node whose first process is at or below: nodes hosting none share their successor's first
        int lo = 0;
        int hi = firstProcess.length - 2;
        while (lo < hi)
        {
            final int mid = (lo + hi + 1) >>> 1;
            if (firstProcess[mid] <= process)
            {
                lo = mid;
            }
            else
            {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * @param process an application rank.
     * @return its index among its node's processes.
     */
    public int localIndexOf(final int process)
    {
        return process - firstProcess[nodeOf(process)];
    }

    /**
     * @param process a value off the wire.
     * @return true if it names a process of this job.
     */
    public boolean isProcess(final int process)
    {
        return process >= 0 && process < processCount();
    }

    /**
     * @return CRC32C of the node count and each node's process count, never 0: what daemons of one job must agree
     * on, folded into the {@link io.ringwatch.core.codec.ConfigDigest} (0 there means no process level).
     */
    public int digest()
    {
        final ByteBuffer fields = ByteBuffer.allocate(4 * firstProcess.length).order(ByteOrder.LITTLE_ENDIAN);
        fields.putInt(nodeCount());
        for (int node = 0; node < nodeCount(); node++)
        {
            fields.putInt(processesOn(node));
        }
        final CRC32C crc = new CRC32C();
        crc.update(fields.flip());
        final int digest = (int)crc.getValue();
        return digest != 0 ? digest : 1;
    }

    public boolean equals(final Object o)
    {
        return o instanceof JobLayout && Arrays.equals(firstProcess, ((JobLayout)o).firstProcess);
    }

    public int hashCode()
    {
        return Arrays.hashCode(firstProcess);
    }

    public String toString()
    {
        return "JobLayout{nodes=" + nodeCount() + ", processes=" + processCount() +
            (uniform != 0 ? ", perNode=" + uniform : "") + "}";
    }
}
