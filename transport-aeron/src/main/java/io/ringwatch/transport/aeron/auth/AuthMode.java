package io.ringwatch.transport.aeron.auth;

import io.ringwatch.transport.aeron.RingwatchConfiguration;

import java.nio.file.Path;

/**
 * Whether a node signs its frames and checks those it receives ({@value RingwatchConfiguration#AUTH_PROP_NAME}).
 */
public enum AuthMode
{
    /** Every frame is signed with the primary key and refused unless it carries a MAC under an accepted key. */
    REQUIRED("required"),

    /** Frames carry a zero MAC and nothing is checked: whoever can reach a node can speak for any rank. */
    OFF("off");

    /** What a node prints, once, when it runs with authentication off. */
    public static final String OFF_WARNING = "frame authentication is OFF (node --no-auth, " +
        RingwatchConfiguration.AUTH_PROP_NAME + "=off, or RingwatchContext.authMode(AuthMode.OFF)): anyone who can send to this node " +
        "(its UDP ports, or the Aeron directory with ipc) can get any node excluded or keep a dead one looking alive";

    /** Why {@code node} refuses to start without a key, and the two ways out. */
    public static final String KEY_REQUIRED = "no key file: a node authenticates its frames unless told not to. " +
        "Make the cluster's keyring once with 'java -jar ringwatch.jar keygen --out FILE', copy it to every host " +
        "(owner-only, 0600), and pass --key-file FILE (or -D" + RingwatchConfiguration.AUTH_KEY_FILE_PROP_NAME +
        "=FILE); or, on a closed test bench only, run without authentication with --no-auth (or -D" +
        RingwatchConfiguration.AUTH_PROP_NAME + "=off), where anyone who can reach a node can get any node excluded";

    /** Why an embedded node refuses to start without a key ({@code RingwatchContext.conclude()}), and the two ways out. */
    public static final String EMBEDDED_KEY_REQUIRED = "no key: an embedded node authenticates its frames unless told " +
        "not to. Give it the cluster's keyring with RingwatchContext.authKeyFile(path) (or -D" +
        RingwatchConfiguration.AUTH_KEY_FILE_PROP_NAME + "=FILE; make one with 'java -jar ringwatch.jar keygen --out " +
        "FILE', owner-only), or, on a closed test bench only, turn authentication off explicitly with " +
        "RingwatchContext.authMode(AuthMode.OFF) (or -D" + RingwatchConfiguration.AUTH_PROP_NAME + "=off), where " +
        "anyone who can reach a node can get any node excluded";

    private final String propertyValue;

    AuthMode(final String propertyValue)
    {
        this.propertyValue = propertyValue;
    }

    /**
     * @return the value of {@value RingwatchConfiguration#AUTH_PROP_NAME} that selects this mode.
     */
    public String propertyValue()
    {
        return propertyValue;
    }

    /**
     * @param value {@code required} or {@code off}.
     * @return the mode.
     * @throws IllegalArgumentException for anything else.
     */
    public static AuthMode parse(final String value)
    {
        for (final AuthMode mode : values())
        {
            if (mode.propertyValue.equals(value))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException(
            RingwatchConfiguration.AUTH_PROP_NAME + "=" + value + ": expected required or off");
    }

    /**
     * The mode the {@code node} command runs in: as {@link #resolve}, but with neither a key nor an explicit
     * {@code off} it refuses to start ({@link #KEY_REQUIRED}) instead of running unauthenticated.
     *
     * @param configured the mode asked for ({@code --no-auth} or {@value RingwatchConfiguration#AUTH_PROP_NAME}), or
     *                   null when neither is given.
     * @param keyFile    the configured key file, or null.
     * @return the mode.
     * @throws IllegalArgumentException without a key or an explicit off, and for what {@link #resolve} refuses.
     */
    public static AuthMode resolveExplicit(final AuthMode configured, final Path keyFile)
    {
        return resolveExplicit(configured, keyFile, KEY_REQUIRED);
    }

    /**
     * The mode a node runs in, fail-closed: required whenever a key is configured, off only when asked for.
     *
     * @param configured the mode asked for, or null when unset.
     * @param keyFile    the configured key file, or null.
     * @param withoutKey the refusal when neither is set, naming the ways out as the caller offers them
     *                   ({@link #KEY_REQUIRED} for {@code node}, {@link #EMBEDDED_KEY_REQUIRED} for an embedded node).
     * @return the mode.
     * @throws IllegalArgumentException with neither a key nor an explicit off, when required has no key, or when off
     * is asked for while a key is configured.
     */
    public static AuthMode resolveExplicit(final AuthMode configured, final Path keyFile, final String withoutKey)
    {
        if (configured == null)
        {
            if (keyFile == null)
            {
                throw new IllegalArgumentException(withoutKey);
            }
            return REQUIRED;
        }
        if (configured == REQUIRED && keyFile == null)
        {
            throw new IllegalArgumentException(RingwatchConfiguration.AUTH_PROP_NAME + "=required needs a keyring: " +
                "set " + RingwatchConfiguration.AUTH_KEY_FILE_PROP_NAME + " (make one with: java -jar ringwatch.jar " +
                "keygen --out FILE)");
        }
        if (configured == OFF && keyFile != null)
        {
            throw new IllegalArgumentException(RingwatchConfiguration.AUTH_PROP_NAME + "=off but a key is " +
                "configured (" + RingwatchConfiguration.AUTH_KEY_FILE_PROP_NAME + "=" + keyFile + "): " +
                "authentication is required whenever a key is; remove one of the two");
        }
        return configured;
    }
}
