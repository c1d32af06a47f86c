package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.transport.aeron.cli.UsageException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * η and δ have one name on every command; an old spelling, or a duration without its unit, is refused before
 * anything starts, with a message that says what to type instead.
 */
class RenamedOptionsTest
{
    @Test
    void shouldRefuseTheDemosOldSpellingsNamingTheNewOnes()
    {
        assertEquals("--heartbeat was renamed --heartbeat-period", usageError(() ->
            DemoCommand.run(new String[]{"demo", "--heartbeat", "10ms", "--suspicion-timeout", "400ms"})));
        assertEquals("--timeout was renamed --suspicion-timeout", usageError(() ->
            DemoCommand.run(new String[]{"demo", "--heartbeat-period", "10ms", "--timeout", "400ms"})));
    }

    @Test
    void shouldRefuseTheDemosUnitlessDurationsBeforeStartingAnything()
    {
        // the example: read as nanoseconds this started a cluster that declared everyone dead
        assertEquals("--heartbeat-period '1' needs a unit: 1ms, 1s, 1us or 1ns", usageError(() ->
            DemoCommand.run(new String[]{"demo", "--heartbeat-period", "1", "--suspicion-timeout", "10"})));
    }

    @Test
    void shouldRefuseTheNodesOldSpellingsNamingTheNewOnes()
    {
        assertEquals("--timeout was renamed --suspicion-timeout", usageError(() ->
            NodeCommand.run(new String[]{"node", "--cluster", "cluster.txt", "--rank", "0", "--timeout", "10ms"})));
        assertEquals("--heartbeat was renamed --heartbeat-period", usageError(() ->
            NodeCommand.run(new String[]{"node", "--cluster", "cluster.txt", "--rank", "0", "--heartbeat", "1ms"})));
        assertEquals("--suspicion-timeout '10' needs a unit: 10ms, 10s, 10us or 10ns", usageError(() ->
            NodeCommand.run(new String[]{"node", "--cluster", "c.txt", "--rank", "0", "--suspicion-timeout", "10"})));
    }

    private interface Run
    {
        int run() throws Exception;
    }

    private static String usageError(final Run command)
    {
        return assertThrows(UsageException.class, command::run).getMessage();
    }
}
