package io.ringwatch.nativeconfig;


/**
 * How a node's agent treats the CPU. The runtime maps {@link #idleStrategyAlias()} to Agrona's idle
 * strategies (the aliases are the ones Aeron's configuration accepts) and pins when {@link #pinsAgent()}.
 */
public enum TuningProfile
{
    /**
     * Busy-spin on a pinned spare core. The agent sees a heartbeat slot change within a cache miss and never
     * waits on the scheduler to wake it, so detection time is bounded by δ and the wire alone. It owns its core
     * outright: use it only when a core the application does not use (ideally isolated with
     * {@code isolcpus}/{@code nohz_full}) is available for each agent on the host.
     */
    LOW_LATENCY("low-latency", "spin", true),

    /**
     * Sleep until the protocol's next deadline (heartbeat due, suspicion expiry), at most the runtime's idle cap
     * ({@code ringwatch.idle.max.sleep}, default η) at a time; no pinning. The agent then shares cores with an HPC
     * application, costing it one wake-up per heartbeat period, at the price of up to that cap before a notice is
     * polled (once per hop). The only safe choice when there are fewer free cores than agents: busy-spinning agents
     * would starve each other (and the application) and cause false suspicions.
     */
    LOW_NOISE("low-noise", "deadline", false);

    private final String cliName;
    private final String idleStrategyAlias;
    private final boolean pinsAgent;

    TuningProfile(final String cliName, final String idleStrategyAlias, final boolean pinsAgent)
    {
        this.cliName = cliName;
        this.idleStrategyAlias = idleStrategyAlias;
        this.pinsAgent = pinsAgent;
    }

    /**
     * @return name used on the command line and in properties: {@code low-latency} or {@code low-noise}.
     */
    public String cliName()
    {
        return cliName;
    }

    /**
     * @return idle strategy alias: {@code "spin"} (Agrona's BusySpinIdleStrategy) or {@code "deadline"} (the
     * runtime's sleep-until-next-deadline strategy).
     */
    public String idleStrategyAlias()
    {
        return idleStrategyAlias;
    }

    /**
     * @return true if the agent thread should be pinned to a spare core.
     */
    public boolean pinsAgent()
    {
        return pinsAgent;
    }

    /**
     * @param name {@code low-latency} or {@code low-noise} (case-insensitive; underscores accepted).
     * @return the profile.
     * @throws IllegalArgumentException naming the value and the accepted ones.
     */
    public static TuningProfile fromName(final String name)
    {
        if (name != null)
        {
            final String normalised = name.trim().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
            for (final TuningProfile profile : values())
            {
                if (profile.cliName.equals(normalised))
                {
                    return profile;
                }
            }
        }
        throw new IllegalArgumentException("unknown tuning profile '" + name + "': expected low-latency or low-noise");
    }

    /**
     * Pick a profile for a host. Busy-spinning needs one free core per agent; anything less and the agents
     * would contend for cores, which shows up as late heartbeats and false suspicions.
     *
     * @param agents    agents (nodes) this host must run.
     * @param freeCores cores none of the application's threads use (see {@link HostCpus#spareCores()}).
     * @return the profile and a sentence saying why.
     */
    public static Recommendation recommend(final int agents, final int freeCores)
    {
        if (agents < 1)
        {
            throw new IllegalArgumentException("agents must be >= 1: " + agents);
        }
        if (freeCores < agents)
        {
            return new Recommendation(LOW_NOISE, agents + " agent(s) but only " + freeCores + " free core(s): " +
                "busy-spinning agents would compete for cores and starve each other into false suspicions, " +
                "so agents back off and sleep when idle and are not pinned");
        }
        return new Recommendation(LOW_LATENCY, freeCores + " free core(s) for " + agents + " agent(s): " +
            "each agent can busy-spin pinned to its own core");
    }

    /**
     * A recommended profile and the reason for it.
     *
     * @param profile the profile.
     * @param reason  one sentence an operator can check.
     */
    public record Recommendation(TuningProfile profile, String reason)
    {
    }
}
