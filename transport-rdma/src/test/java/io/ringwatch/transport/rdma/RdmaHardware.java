package io.ringwatch.transport.rdma;

import java.net.InetAddress;
import java.net.UnknownHostException;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The gate of every test that needs RDMA hardware: it runs where {@code /sys/class/infiniband} shows an ACTIVE port,
 * libibverbs and librdmacm are on the linker path and libdisni loads and opens an event channel; elsewhere it is
 * skipped with the first missing piece as the reason (what {@code doctor} prints too). Never simulated. Public for
 * transport-aeron's tests of the live runtime on RDMA, which take this module's test-jar.
 */
public final class RdmaHardware
{
    /** Pick the RDMA interface's address when the host has several. */
    public static final String ADDRESS_PROP_NAME = "ringwatch.rdma.test.address";

    private RdmaHardware()
    {
    }

    /**
     * Skip the calling test unless RDMA is usable here.
     *
     * @return the IPv4 address of an RDMA interface to bind to.
     */
    public static InetAddress assumeUsable()
    {
        final RdmaDevices.Availability availability = RdmaDevices.probe();
        assumeTrue(availability.usable(), () -> "RDMA hardware test skipped: " + availability.reason());
        final String configured = System.getProperty(ADDRESS_PROP_NAME);
        final InetAddress address;
        try
        {
            address = configured != null ?
                InetAddress.getByName(configured) : RdmaDevices.firstIpv4Address(availability.netDevices());
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException(ADDRESS_PROP_NAME + "=" + configured + " does not resolve", ex);
        }
        assumeTrue(address != null, () -> "RDMA hardware test skipped: no IPv4 address on RDMA interfaces " +
            availability.netDevices() + "; set -D" + ADDRESS_PROP_NAME);
        return address;
    }
}
