package io.ringwatch.nativeconfig;

/**
 * {@code ulimit -l}: how much memory the process may pin. RDMA memory registration pins pages, and so do
 * queue pairs and completion queues, so an RDMA node needs headroom here; Aeron over UDP/IPC does not.
 *
 * @param softBytes current limit in bytes, or {@link #UNLIMITED}.
 * @param hardBytes ceiling the soft limit may be raised to, or {@link #UNLIMITED}.
 */
public record LockedMemoryLimit(long softBytes, long hardBytes)
{
    /** Value of a limit the kernel reports as {@code unlimited}. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private static final String LINE_PREFIX = "Max locked memory";

    /**
     * Parse {@code /proc/<pid>/limits}.
     *
     * @param procLimits whole file contents.
     * @return the limit, or {@code null} if the line is absent.
     * @throws IllegalArgumentException if the line is present but malformed.
     */
    public static LockedMemoryLimit parse(final String procLimits)
    {
        for (final String line : procLimits.split("\n"))
        {
            if (line.startsWith(LINE_PREFIX))
            {
                final String[] fields = line.substring(LINE_PREFIX.length()).trim().split("\\s+");
                if (fields.length < 2)
                {
                    throw new IllegalArgumentException("malformed limits line: '" + line + "'");
                }
                return new LockedMemoryLimit(parseValue(fields[0], line), parseValue(fields[1], line));
            }
        }

        return null;
    }

    /**
     * @return true if the soft limit is {@code unlimited}.
     */
    public boolean isUnlimited()
    {
        return softBytes == UNLIMITED;
    }

    private static long parseValue(final String value, final String line)
    {
        if ("unlimited".equals(value))
        {
            return UNLIMITED;
        }
        try
        {
            return Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("malformed limit '" + value + "' in '" + line + "'", ex);
        }
    }

    /**
     * @param bytes a size or {@link #UNLIMITED}.
     * @return human-readable size.
     */
    public static String describe(final long bytes)
    {
        return bytes == UNLIMITED ? "unlimited" : Sizes.format(bytes);
    }
}
