package io.ringwatch.transport.rdma;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RdmaEndpointTest
{
    @Test
    void shouldParseHostNamesIpv4AndBracketedIpv6()
    {
        assertEquals(new RdmaEndpoint("node7-ib", 7471), RdmaEndpoint.parse("node7-ib:7471"));
        assertEquals(new RdmaEndpoint("192.168.100.7", 1), RdmaEndpoint.parse(" 192.168.100.7:1 "));
        assertEquals(new RdmaEndpoint("fe80::1", 65535), RdmaEndpoint.parse("[fe80::1]:65535"));
    }

    @Test
    void shouldPrintWhatItParses()
    {
        for (final String text : new String[]{ "node7-ib:7471", "10.0.0.1:9", "[fe80::1]:7471" })
        {
            assertEquals(text, RdmaEndpoint.parse(text).toString());
        }
    }

    @Test
    void shouldRejectMalformedEndpointsSayingWhatIsWrong()
    {
        assertMessage("", "empty");
        assertMessage("node7", "no port");
        assertMessage(":7471", "no host");
        assertMessage("node7:", "is not a number");
        assertMessage("node7:x", "'x' is not a number");
        assertMessage("node7:0", "not in [1, 65535]");
        assertMessage("node7:65536", "not in [1, 65535]");
        assertMessage("fe80::1:7471", "IPv6 literal must be bracketed");
        assertMessage("[fe80::1:7471", "without ']'");
        assertMessage("[fe80::1]7471", "expected [ipv6]:port");
        assertMessage("[node7]:7471", "brackets are for IPv6");
    }

    private static void assertMessage(final String text, final String expected)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> RdmaEndpoint.parse(text), text);
        assertTrue(ex.getMessage().contains(expected), text + " -> " + ex.getMessage());
    }

    @Test
    void shouldResolveLiteralsWithoutLookupAndFlagIpv6ForDisni() throws Exception
    {
        final InetSocketAddress v4 = RdmaEndpoint.parse("127.0.0.1:7471").resolve();
        assertEquals(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 7471), v4);
        assertNull(RdmaEndpoint.unsupportedByDisniReason(v4));
        assertNotNull(RdmaEndpoint.unsupportedByDisniReason(RdmaEndpoint.parse("[::1]:7471").resolve()));
    }

    @Test
    void shouldNameTheHostThatDoesNotResolve()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new RdmaEndpoint("no-such-host.invalid", 7471).resolve());
        assertTrue(ex.getMessage().contains("no-such-host.invalid:7471"), ex.getMessage());
    }
}
