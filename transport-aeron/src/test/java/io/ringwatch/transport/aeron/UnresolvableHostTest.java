package io.ringwatch.transport.aeron;

import io.aeron.driver.MediaDriver;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.internal.Drivers;
import io.ringwatch.transport.aeron.launch.ClusterDirectory;
import io.ringwatch.transport.aeron.launch.FreePorts;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cluster file naming a host that does not resolve stops the node at start with the host and its rank named,
 * before anything is sent (it used to show only as an Aeron counter of unresolved endpoints).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnresolvableHostTest
{
    @Test
    void shouldRefuseToStartNamingAPeerHostThatDoesNotResolve()
    {
        final File dir = new File(ClusterDirectory.defaultParent(), "ringwatch-unresolvable-" +
            ProcessHandle.current().pid() + "-" + System.nanoTime());
        final MediaDriver driver = MediaDriver.launch(Drivers.lowFootprint(dir.getAbsolutePath()));
        try
        {
            final List<ClusterConfig.Member> members = new ArrayList<>(FreePorts.localhostMembers(3));
            final ClusterConfig.Member bad = members.get(2);
            // .invalid never resolves (RFC 6761)
            members.set(2, new ClusterConfig.Member(2, "no-such-host.invalid", bad.controlPort(), bad.heartbeatPort()));
            final RingwatchContext ctx = new RingwatchContext().authMode(AuthMode.OFF)
                .cluster(new ClusterConfig(41, TimeUnit.MILLISECONDS.toNanos(10), TimeUnit.MILLISECONDS.toNanos(100),
                    members))
                .rank(0)
                .transport(TransportMode.UDP)
                .embeddedDriver(false)
                .aeronDirectoryName(dir.getAbsolutePath())
                .threadingMode(ThreadingMode.UNSTARTED);

            final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> RingwatchNode.launch(ctx));
            assertTrue(ex.getMessage().contains("cannot resolve host 'no-such-host.invalid' of rank 2"),
                ex.getMessage());
        }
        finally
        {
            CloseHelper.quietClose(driver);
        }
    }
}
