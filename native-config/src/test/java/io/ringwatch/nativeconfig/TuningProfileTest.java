package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TuningProfileTest
{
    @Test
    void shouldRecommendLowNoiseWhenFewerFreeCoresThanAgents()
    {
        final TuningProfile.Recommendation rec = TuningProfile.recommend(8, 2);

        assertEquals(TuningProfile.LOW_NOISE, rec.profile());
        assertTrue(rec.reason().contains("8 agent(s) but only 2 free core(s)"), rec.reason());
    }

    @Test
    void shouldRecommendLowLatencyWhenEveryAgentHasACore()
    {
        assertEquals(TuningProfile.LOW_LATENCY, TuningProfile.recommend(2, 2).profile());
        assertEquals(TuningProfile.LOW_LATENCY, TuningProfile.recommend(1, 4).profile());
    }

    @Test
    void shouldRejectNonPositiveAgentCount()
    {
        assertThrows(IllegalArgumentException.class, () -> TuningProfile.recommend(0, 4));
    }

    @Test
    void shouldCarryIdleStrategyAndPinningIntent()
    {
        assertEquals("spin", TuningProfile.LOW_LATENCY.idleStrategyAlias());
        assertTrue(TuningProfile.LOW_LATENCY.pinsAgent());
        assertEquals("deadline", TuningProfile.LOW_NOISE.idleStrategyAlias());
        assertFalse(TuningProfile.LOW_NOISE.pinsAgent());
    }

    @Test
    void shouldParseCliNamesAndRejectOthers()
    {
        assertEquals(TuningProfile.LOW_LATENCY, TuningProfile.fromName("low-latency"));
        assertEquals(TuningProfile.LOW_NOISE, TuningProfile.fromName(" LOW_NOISE "));
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> TuningProfile.fromName("turbo"));
        assertTrue(ex.getMessage().contains("'turbo'"), ex.getMessage());
    }
}
