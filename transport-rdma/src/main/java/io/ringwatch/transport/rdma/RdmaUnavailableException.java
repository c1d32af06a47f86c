package io.ringwatch.transport.rdma;

/**
 * RDMA cannot be used on this host; the message is {@link RdmaDevices.Availability#reason()}.
 */
public final class RdmaUnavailableException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param reason why RDMA is unusable.
     */
    public RdmaUnavailableException(final String reason)
    {
        super(reason);
    }

    /**
     * @param reason why RDMA is unusable.
     * @param cause  the failure behind it.
     */
    public RdmaUnavailableException(final String reason, final Throwable cause)
    {
        super(reason, cause);
    }
}
