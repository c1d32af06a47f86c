package io.ringwatch.transport.aeron.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Whom a node says hello to: the seeds and its ring predecessor, never itself.
 */
class HelloExchangeTest
{
    @Test
    void shouldSayHelloToTheSeedsAndThePredecessor()
    {
        assertArrayEquals(new int[]{1, 2}, HelloExchange.targets(0, 3, 3));
        assertArrayEquals(new int[]{0, 2}, HelloExchange.targets(1, 3, 3));
        assertArrayEquals(new int[]{1}, HelloExchange.targets(0, 2, 2));
        assertArrayEquals(new int[]{1, 2, 9}, HelloExchange.targets(0, 10, 3));
        assertArrayEquals(new int[]{0, 1, 2, 4}, HelloExchange.targets(5, 10, 3));
        assertArrayEquals(new int[]{0, 1, 2}, HelloExchange.targets(3, 10, 3), "rank 3's predecessor is a seed");
    }
}
