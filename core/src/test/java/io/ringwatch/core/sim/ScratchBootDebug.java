package io.ringwatch.core.sim;

class ScratchBootDebug
{
    public static void main(final String[] args)
    {
        final SimConfig template = new SimConfig().nodes(Integer.parseInt(args[1])).failures(Integer.parseInt(args[2]))
            .placement(FailurePlacement.RANDOM).heartbeatPeriodNs(100_000_000L).suspicionTimeoutNs(1_000_000_000L)
            .maxDelayNs(1_000_000L).mtbfNs(31_557_600_000_000_000L).seed(5)
            .restartAfterNs(-1).boot(BootMode.JOIN).seeds(-1).startSpreadNs(2_000_000_000L);
        final SimConfig config = template.copy().seed(Long.parseLong(args[0]));
        final Simulation sim = new Simulation(config);
        final SimResult r = sim.run();
        System.out.println(r.violations());
        for (int rank = 0; rank < config.nodes(); rank++)
        {
            final var node = sim.node(rank);
            System.out.println(rank + " stopped=" + sim.isStopped(rank) + " state=" + node.state() + " inc=" +
                node.incarnation() + " dead=" + node.deadSet().size() + " reqs=" + node.joinRequestsSent() +
                " refused=" + node.joinsRefused() + " stale=" + node.staleFrames() + " fromDead=" + node.framesFromDead() + " em=" + node.emitter() + " obs=" + node.observer() + " conf=" + node.joinConfirmed() + " susp=" + node.suspicions() + " orig=" + node.noticesOriginated() + " fwd=" + node.noticesForwarded() + " nref=" + node.noticesRefused() + " dup=" + node.noticesDuplicate() + " noRef=" + node.newObserverRefused() + " dead=" + node.deadSet());
        }
    }
}
