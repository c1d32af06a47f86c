package io.ringwatch.perf.reproduce;

/**
 * A simulated run broke one of the simulator's safety or liveness checks: the experiment still reports what it
 * measured, and the command exits non-zero.
 */
public final class SimulationCheckFailed extends Exception
{
    private static final long serialVersionUID = 1L;

    private final transient ReportSection section;

    /**
     * @param message the violations, with seeds.
     * @param section the experiment's report, the violations included.
     */
    public SimulationCheckFailed(final String message, final ReportSection section)
    {
        super(message);
        this.section = section;
    }

    /**
     * @return the report section.
     */
    public ReportSection section()
    {
        return section;
    }
}
