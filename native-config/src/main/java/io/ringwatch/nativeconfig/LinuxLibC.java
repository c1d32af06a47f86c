package io.ringwatch.nativeconfig;

import com.sun.jna.Library;
import com.sun.jna.Native;

import java.util.Locale;

/**
 * libc bound through JNA to the interface of the calls a class needs, loaded once from that class's lazy holder.
 * Linux only; another OS or a libc JNA cannot load is an answer, never an exception.
 *
 * @param library           the bound interface, or {@code null} when unavailable.
 * @param unavailableReason why {@code library} is {@code null}; empty when it is not.
 * @param <T>               the interface declaring the calls.
 */
record LinuxLibC<T extends Library>(T library, String unavailableReason)
{
    /**
     * @param type  the interface declaring the calls.
     * @param calls what the caller needs libc for, naming the reason on another OS, e.g. {@code "sched_setaffinity"}.
     * @param <T>   the interface declaring the calls.
     * @return the bound library, or why there is none.
     */
    static <T extends Library> LinuxLibC<T> load(final Class<T> type, final String calls)
    {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"))
        {
            return new LinuxLibC<>(null, calls + " is Linux only, not " + System.getProperty("os.name"));
        }
        try
        {
            return new LinuxLibC<>(Native.load("c", type), "");
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return new LinuxLibC<>(null, "libc not loadable through JNA: " + ex);
        }
    }
}
