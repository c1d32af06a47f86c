package io.ringwatch.nativeconfig;

/**
 * File system types from {@code /proc/mounts}.
 */
public final class MountTable
{
    private MountTable()
    {
    }

    /**
     * The type of the file system holding {@code path}: the mount with the longest mount point that is
     * {@code path} or one of its parents. Later entries win on ties, as they shadow earlier ones.
     *
     * @param procMounts whole contents of {@code /proc/mounts}.
     * @param path       absolute, normalised path.
     * @return e.g. {@code "tmpfs"}, or {@code null} if no entry covers the path.
     */
    public static String fileSystemType(final String procMounts, final String path)
    {
        String bestType = null;
        int bestLength = -1;
        for (final String line : procMounts.split("\n"))
        {
            final String[] fields = line.trim().split("\\s+");
            if (fields.length < 3)
            {
                continue;
            }
            final String mountPoint = unescape(fields[1]);
            if (covers(mountPoint, path) && mountPoint.length() >= bestLength)
            {
                bestLength = mountPoint.length();
                bestType = fields[2];
            }
        }

        return bestType;
    }

    private static boolean covers(final String mountPoint, final String path)
    {
        if ("/".equals(mountPoint))
        {
            return path.startsWith("/");
        }
        return path.equals(mountPoint) || path.startsWith(mountPoint + "/");
    }

    /** The kernel writes space, tab, newline and backslash in mount points as octal escapes. */
    static String unescape(final String field)
    {
        if (field.indexOf('\\') < 0)
        {
            return field;
        }
        final StringBuilder sb = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++)
        {
            final char c = field.charAt(i);
            if (c == '\\' && isOctal(field, i + 1))
            {
                sb.append((char)Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            }
            else
            {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static boolean isOctal(final String s, final int from)
    {
        if (from + 3 > s.length())
        {
            return false;
        }
        for (int i = from; i < from + 3; i++)
        {
            final char c = s.charAt(i);
            if (c < '0' || c > '7')
            {
                return false;
            }
        }
        return true;
    }
}
