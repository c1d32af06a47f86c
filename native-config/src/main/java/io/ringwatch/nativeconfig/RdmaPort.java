package io.ringwatch.nativeconfig;

/**
 * One port of an RDMA device as sysfs describes it.
 *
 * @param device    device name, e.g. {@code mlx5_0}.
 * @param port      port number, from 1.
 * @param state     logical state name: {@code ACTIVE}, {@code INIT}, {@code DOWN}, ... ({@code UNKNOWN} if
 *                  unreadable).
 * @param linkLayer {@code InfiniBand} or {@code Ethernet} (RoCE); {@code UNKNOWN} if unreadable.
 * @param rate      e.g. {@code "100 Gb/sec (4X EDR)"}; empty if unreadable.
 */
public record RdmaPort(String device, int port, String state, String linkLayer, String rate)
{
    /** State of a port that can carry traffic. */
    public static final String ACTIVE = "ACTIVE";
    /** Stand-in for an unreadable attribute. */
    public static final String UNKNOWN = "UNKNOWN";

    /**
     * @return true if the port can carry traffic now.
     */
    public boolean isActive()
    {
        return ACTIVE.equals(state);
    }

    /**
     * sysfs writes port states as {@code "<number>: <NAME>"}, e.g. {@code "4: ACTIVE"}.
     *
     * @param text file contents, or {@code null}.
     * @return the name, or {@link #UNKNOWN}.
     */
    public static String parseState(final String text)
    {
        if (text == null)
        {
            return UNKNOWN;
        }
        final String trimmed = text.trim();
        final int colon = trimmed.indexOf(':');
        final String name = colon < 0 ? trimmed : trimmed.substring(colon + 1).trim();
        return name.isEmpty() ? UNKNOWN : name;
    }
}
