package io.ringwatch.nativeconfig;

/**
 * The explicit huge page pool from {@code /proc/meminfo}. Optional for Ringwatch (its slots and buffers are
 * small) but worth showing: an HPC application sharing the host may depend on it, and Aeron term buffers
 * can be backed by it.
 *
 * @param total         {@code HugePages_Total}.
 * @param free          {@code HugePages_Free}.
 * @param pageSizeBytes {@code Hugepagesize}, in bytes.
 */
public record HugePages(long total, long free, long pageSizeBytes)
{
    /**
     * Parse {@code /proc/meminfo}.
     *
     * @param meminfo whole file contents.
     * @return the pool, or {@code null} if the kernel reports no huge page support (lines absent).
     * @throws IllegalArgumentException if a line is present but malformed.
     */
    public static HugePages parse(final String meminfo)
    {
        long total = -1;
        long free = -1;
        long size = -1;
        for (final String line : meminfo.split("\n"))
        {
            final int colon = line.indexOf(':');
            if (colon < 0)
            {
                continue;
            }
            final String key = line.substring(0, colon);
            switch (key)
            {
                case "HugePages_Total" -> total = parseNumber(line, colon);
                case "HugePages_Free" -> free = parseNumber(line, colon);
                case "Hugepagesize" -> size = parseNumber(line, colon) * 1024L;
                default ->
                {
                }
            }
        }

        return total < 0 || free < 0 || size < 0 ? null : new HugePages(total, free, size);
    }

    private static long parseNumber(final String line, final int colon)
    {
        final String[] fields = line.substring(colon + 1).trim().split("\\s+");
        try
        {
            return Long.parseLong(fields[0]);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("malformed meminfo line: '" + line + "'", ex);
        }
    }
}
