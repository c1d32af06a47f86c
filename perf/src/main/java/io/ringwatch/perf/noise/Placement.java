package io.ringwatch.perf.noise;



/**
 * Where the detector runs relative to the application, the question the noise benchmark asks.
 */
public enum Placement
{
    /**
     * Low-noise profile (sleeping agents, SCHED_FIFO when permitted) on the application's own cores, driver too:
     * a host with no core to spare.
     */
    LOW_NOISE_SHARED("low-noise", "low-noise", "low-noise on the application's cores"),

    /**
     * Low-noise agents on the application's cores, but the media driver on the detector's: separates what the
     * agents cost from what the driver's paced threads cost.
     */
    LOW_NOISE_DRIVER_APART("low-noise-driver-apart", "low-noise", "low-noise agents on the application's cores, driver apart"),

    /**
     * Low-latency profile (busy-spinning agents) on cores the application does not use, driver there too.
     */
    LOW_LATENCY_OWN_CORE("low-latency", "low-latency", "low-latency on a core of its own"),

    /**
     * Low-latency profile forced onto an application core, one spinning agent per core: the bad case.
     */
    LOW_LATENCY_APP_CORE("low-latency-app-core", "low-latency", "low-latency forced onto an application core");

    private final String cliName;
    private final String profile;
    private final String description;

    Placement(final String cliName, final String profile, final String description)
    {
        this.cliName = cliName;
        this.profile = profile;
        this.description = description;
    }

    /**
     * @return name on the command line and in tables.
     */
    public String cliName()
    {
        return cliName;
    }

    /**
     * @return the nodes' tuning profile.
     */
    public String profile()
    {
        return profile;
    }

    /**
     * @return one phrase for reports.
     */
    public String description()
    {
        return description;
    }

    /**
     * @param name a {@link #cliName()}.
     * @return the placement.
     * @throws IllegalArgumentException naming the accepted ones.
     */
    public static Placement fromName(final String name)
    {
        for (final Placement p : values())
        {
            if (p.cliName.equals(name))
            {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown placement '" + name +
            "' (expected low-noise, low-noise-driver-apart, low-latency or low-latency-app-core)");
    }
}
