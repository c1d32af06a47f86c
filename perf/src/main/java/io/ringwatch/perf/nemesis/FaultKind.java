package io.ringwatch.perf.nemesis;

import java.util.Locale;

/**
 * What the nemesis can do, by the name {@code --faults} takes.
 */
public enum FaultKind
{
    /** SIGKILL one node; its supervisor restarts it. */
    KILL(Scope.NODE),
    /** SIGSTOP one node for less than δ/2, then SIGCONT: no one may be excluded for it. */
    PAUSE_SHORT(Scope.NODE),
    /** SIGSTOP one node for several δ, then SIGCONT: it is declared dead and fenced when it wakes. */
    PAUSE_LONG(Scope.NODE),
    /** Take a host off the switch for less than δ/2: no one may be excluded for it. */
    CUT_SHORT(Scope.NETWORK),
    /** Take a host off the switch for much longer than δ: its nodes are a minority and stop. */
    CUT_LONG(Scope.NETWORK),
    /** Split the hosts in two equal halves for much longer than δ: one half (the tie rule's loser) stops. */
    SPLIT_EVEN(Scope.NETWORK),
    /** Split one host from the others for much longer than δ, both ways. */
    SPLIT_UNEVEN(Scope.NETWORK),
    /** A one-way fault: a host still sends but hears nothing, for much longer than δ. */
    DEAF(Scope.NETWORK),
    /** SIGKILL a host's media driver; its nodes stop (exit 4) and restart once the driver is back. */
    KILL_DRIVER(Scope.HOST),
    /** Spinning processes pinned to the machine's cores inside a host's namespace, for several δ. */
    CPU_HOG(Scope.HOST),
    /** SIGKILL several nodes at once; their supervisors restart them together. */
    RESTART_STORM(Scope.NODE);

    /**
     * What a fault acts on: faults of one network at a time, the others may overlap.
     */
    public enum Scope
    {
        /** One or more node processes. */
        NODE,
        /** A host's processes. */
        HOST,
        /** The switch between hosts: one such fault at a time. */
        NETWORK
    }

    private final Scope scope;

    FaultKind(final Scope scope)
    {
        this.scope = scope;
    }

    /**
     * @return what it acts on.
     */
    public Scope scope()
    {
        return scope;
    }

    /**
     * @return its name on the command line, e.g. {@code pause-short}.
     */
    public String cliName()
    {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @param name a {@link #cliName()}.
     * @return the kind.
     * @throws IllegalArgumentException if no kind has that name.
     */
    public static FaultKind fromCliName(final String name)
    {
        for (final FaultKind kind : values())
        {
            if (kind.cliName().equals(name))
            {
                return kind;
            }
        }
        throw new IllegalArgumentException("no fault kind '" + name + "'");
    }
}
