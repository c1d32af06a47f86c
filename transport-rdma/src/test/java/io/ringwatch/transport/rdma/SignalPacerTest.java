package io.ringwatch.transport.rdma;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SignalPacerTest
{
    @Test
    void shouldSignalEveryNthPost()
    {
        final SignalPacer pacer = new SignalPacer(4, 16);
        final StringBuilder pattern = new StringBuilder();

        for (int i = 0; i < 12; i++)
        {
            pattern.append(pacer.onPost() ? 'S' : '.');
        }

        assertEquals("...S...S...S", pattern.toString());
    }

    @Test
    void shouldStopPostingWhenQueueIsFullUntilACompletionIsReaped()
    {
        final SignalPacer pacer = new SignalPacer(4, 8);
        for (int i = 0; i < 8; i++)
        {
            assertTrue(pacer.canPost());
            pacer.onPost();
        }

        assertFalse(pacer.canPost());
        pacer.onSignalledCompletion();

        assertTrue(pacer.canPost());
        assertEquals(4, pacer.outstanding());
    }

    @Test
    void shouldStartOverForANewQueuePair()
    {
        final SignalPacer pacer = new SignalPacer(3, 6);
        pacer.onPost();
        pacer.onPost();

        pacer.reset();

        assertEquals(0, pacer.outstanding());
        assertFalse(pacer.onPost());
        assertFalse(pacer.onPost());
        assertTrue(pacer.onPost());
    }

    @Test
    void shouldSignalEveryPostWithIntervalOne()
    {
        final SignalPacer pacer = new SignalPacer(1, 2);

        assertTrue(pacer.onPost());
        assertTrue(pacer.onPost());
    }

    @Test
    void shouldRejectQueueTooShallowToKeepPostingWhileACompletionIsInFlight()
    {
        assertThrows(IllegalArgumentException.class, () -> new SignalPacer(8, 15));
        assertThrows(IllegalArgumentException.class, () -> new SignalPacer(0, 4));
    }
}
