package io.ringwatch.transport.aeron;

import io.aeron.driver.MediaDriver;
import io.ringwatch.transport.aeron.internal.Drivers;

/**
 * A media driver with ringwatch's settings, for an application that runs the host's driver in its own JVM rather
 * than as {@code ringwatch.jar driver}: it beats every 10 ms (a node stops on a driver that is late), keeps its
 * threads light, and removes its directory when closed.
 */
public final class RingwatchDriver
{
    private RingwatchDriver()
    {
    }

    /**
     * @param aeronDir the directory every node of the host is given ({@link RingwatchContext#aeronDirectoryName}).
     * @return the running driver; close it after the nodes.
     */
    public static MediaDriver launch(final String aeronDir)
    {
        return MediaDriver.launch(Drivers.lowFootprint(aeronDir));
    }
}
