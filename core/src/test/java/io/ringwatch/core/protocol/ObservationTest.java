package io.ringwatch.core.protocol;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * T1–T3 alone, without a node: beats at absolute deadlines, the suspicion deadline, the grace and the pause guard.
 */
class ObservationTest
{
    private static final int N = 8;
    private static final int RANK = 3;
    private static final long ETA = 10;
    private static final long DELTA = 100;
    private static final long GRACE = 50;

    private final RecordingChannels io = new RecordingChannels();
    private final ProtocolCounters counters = new ProtocolCounters();
    private final Observation observation = new Observation(RANK,
        ProtocolSettings.of(N, ETA, DELTA).withStartupGraceNs(GRACE), io, io, new Membership(DELTA / 2), counters);

    @Test
    void shouldWatchThePreviousRankAndBeatTheNextAtFirst()
    {
        assertEquals(2, observation.emitter());
        assertEquals(4, observation.observer());
    }

    @Test
    void shouldBeatAtAbsoluteDeadlinesSkippingThoseMissed()
    {
        observation.rebase(0);

        assertEquals(1, observation.beatIfDue(0));
        assertEquals(0, observation.beatIfDue(5));
        assertEquals(1, observation.beatIfDue(37));
        assertEquals(40, observation.nextHeartbeatNs(), "late at 37: the beats of 10, 20 and 30 are skipped");
        assertEquals(2, counters.get(ProtocolCounter.HEARTBEAT_DEADLINES_MISSED));
        assertEquals(2, io.sentOfType("heartbeat").size());
        assertEquals(4, io.sentOfType("heartbeat").get(1).to());
    }

    @Test
    void shouldJudgeNobodyBeforeDeltaAfterTheGrace()
    {
        observation.rebase(0);

        assertEquals(GRACE + DELTA, observation.suspicionDeadlineNs());
        assertEquals(Observation.QUIET, observation.watchEmitter(GRACE + DELTA - 1, false));
        assertEquals(Observation.EXPIRED, observation.watchEmitter(GRACE + DELTA, false));
        assertEquals(GRACE + DELTA, observation.armed(GRACE + 1), "a deadline inside the grace moves to δ after it");
    }

    @Test
    void shouldPushTheDeadlineOnProgressAndReportTheSilence()
    {
        observation.rebase(0);
        io.deposit(2, 1);
        assertEquals(Observation.HEARD, observation.watchEmitter(200, false));
        assertEquals(0, observation.beats(), "the first beat seen has no count to compare");

        io.deposit(2, 4);
        assertEquals(Observation.HEARD, observation.watchEmitter(260, false));
        assertEquals(3, observation.beats());
        assertEquals(60, observation.silenceNs());
        assertEquals(360, observation.suspicionDeadlineNs());
    }

    @Test
    void shouldSeeTheSlotAfreshAfterItsOwnStall()
    {
        observation.rebase(0);

        assertEquals(Observation.LATE, observation.watchEmitter(500, true));
        assertEquals(600, observation.suspicionDeadlineNs(), "a late cycle restarts the window instead of suspecting");
        io.deposit(2, 1);
        assertEquals(Observation.HEARD, observation.watchEmitter(510, false));
        assertEquals(true, observation.stalled(), "a silence spanning its own stall is no evidence of a cut");
        assertEquals(1, counters.get(ProtocolCounter.PAUSES_DETECTED));
    }

    @Test
    void shouldAllowANewEmitterTwoDeltasAndBeatANewObserverAtOnce()
    {
        observation.rebase(0);

        observation.newEmitter(1, 400);
        assertEquals(1, observation.emitter());
        assertEquals(600, observation.suspicionDeadlineNs());

        observation.observedBy(5, 410);
        assertEquals(5, observation.observer());
        assertEquals(5, io.sentOfType("heartbeat").get(0).to());
    }

    @Test
    void shouldNeitherBeatNorWatchWhenAlone()
    {
        observation.rebase(0);
        observation.alone();

        assertEquals(0, observation.beatIfDue(1_000));
        assertEquals(Observation.QUIET, observation.watchEmitter(1_000, false));
        assertEquals(Long.MAX_VALUE, observation.nextHeartbeatNs());
        assertEquals(Long.MAX_VALUE, observation.suspicionDeadlineNs());
    }
}
