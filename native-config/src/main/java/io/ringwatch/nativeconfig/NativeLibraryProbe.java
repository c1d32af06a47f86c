package io.ringwatch.nativeconfig;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds shared libraries the way an operator would reason about them: on {@code java.library.path} (where
 * {@code System.loadLibrary} looks, and so where DiSNI looks for {@code libdisni}) and on the dynamic linker's
 * path ({@code LD_LIBRARY_PATH}, {@code /etc/ld.so.conf.d}, the default directories), where
 * {@code libdisni}'s own dependencies {@code libibverbs} and {@code librdmacm} must be.
 */
public final class NativeLibraryProbe
{
    private static final List<String> DEFAULT_LINKER_DIRS = List.of(
        "/lib", "/usr/lib", "/lib64", "/usr/lib64", "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
        "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/local/lib");

    private NativeLibraryProbe()
    {
    }

    /**
     * Where a library was looked for and what was found.
     *
     * @param name      library name without prefix or suffix, e.g. {@code "ibverbs"}.
     * @param foundAt   first matching file, or {@code null}.
     * @param loadError message of the failed {@code System.loadLibrary}, {@code null} if it loaded or was not
     *                  attempted.
     * @param attempted whether a load was attempted.
     */
    public record Result(String name, Path foundAt, String loadError, boolean attempted)
    {
        /**
         * @return true if the library was found and, when a load was attempted, loaded.
         */
        public boolean usable()
        {
            return attempted ? loadError == null : foundAt != null;
        }
    }

    /**
     * Look for {@code lib<name>.so} or a versioned {@code lib<name>.so.N} on the linker path, without loading.
     *
     * @param name e.g. {@code "ibverbs"}.
     * @return the outcome.
     */
    public static Result findOnLinkerPath(final String name)
    {
        return new Result(name, find(name, linkerSearchPath()), null, false);
    }

    /**
     * Load through {@code System.loadLibrary}, exactly what a JNI binding such as DiSNI does. Loading is a
     * side effect on the JVM but harmless: the binding would load the same file.
     *
     * @param name e.g. {@code "disni"}.
     * @return the outcome, with the linker's message when it fails (often naming a missing dependency).
     */
    public static Result tryLoad(final String name)
    {
        final Path found = find(name, javaLibraryPath());
        try
        {
            System.loadLibrary(name);
            return new Result(name, found, null, true);
        }
        catch (final UnsatisfiedLinkError | SecurityException ex)
        {
            return new Result(name, found, String.valueOf(ex.getMessage()), true);
        }
    }

    /**
     * @param name library name without prefix/suffix.
     * @param dirs directories to search in order.
     * @return first {@code lib<name>.so} or {@code lib<name>.so.*} found, or {@code null}.
     */
    public static Path find(final String name, final List<Path> dirs)
    {
        final String exact = "lib" + name + ".so";
        for (final Path dir : dirs)
        {
            final Path candidate = dir.resolve(exact);
            if (Files.isRegularFile(candidate))
            {
                return candidate;
            }
            if (!Files.isDirectory(dir))
            {
                continue;
            }
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, exact + ".*"))
            {
                for (final Path versioned : stream)
                {
                    return versioned;
                }
            }
            catch (final IOException | SecurityException ignore)
            {
                // unreadable directory: keep looking elsewhere
            }
        }
        return null;
    }

    /**
     * @return entries of {@code java.library.path}.
     */
    public static List<Path> javaLibraryPath()
    {
        return splitPath(System.getProperty("java.library.path", ""));
    }

    /**
     * @return {@code LD_LIBRARY_PATH}, then directories from {@code /etc/ld.so.conf.d/*.conf}, then defaults.
     */
    public static List<Path> linkerSearchPath()
    {
        final Set<Path> dirs = new LinkedHashSet<>(splitPath(System.getenv("LD_LIBRARY_PATH")));
        final Path confDir = Path.of("/etc/ld.so.conf.d");
        if (Files.isDirectory(confDir))
        {
            final List<Path> confs = new ArrayList<>();
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(confDir, "*.conf"))
            {
                stream.forEach(confs::add);
            }
            catch (final IOException | SecurityException ignore)
            {
                // fall through to the defaults
            }
            confs.sort(null);
            for (final Path conf : confs)
            {
                final String text = HostFiles.readOrNull(conf);
                if (text != null)
                {
                    dirs.addAll(parseLdSoConf(text));
                }
            }
        }
        for (final String dir : DEFAULT_LINKER_DIRS)
        {
            dirs.add(Path.of(dir));
        }
        return new ArrayList<>(dirs);
    }

    /**
     * Directories listed in an {@code ld.so.conf}-style file; comments and {@code include} lines are skipped
     * (the includes we care about are the {@code ld.so.conf.d} files, read directly).
     *
     * @param text file contents.
     * @return absolute directories in file order.
     */
    public static List<Path> parseLdSoConf(final String text)
    {
        final List<Path> dirs = new ArrayList<>();
        for (final String raw : text.split("\n"))
        {
            final int hash = raw.indexOf('#');
            final String line = (hash < 0 ? raw : raw.substring(0, hash)).trim();
            if (line.startsWith("/"))
            {
                dirs.add(Path.of(line));
            }
        }
        return dirs;
    }

    private static List<Path> splitPath(final String path)
    {
        final List<Path> dirs = new ArrayList<>();
        if (path == null)
        {
            return dirs;
        }
        for (final String entry : path.split(File.pathSeparator))
        {
            if (!entry.isBlank())
            {
                dirs.add(Path.of(entry.trim()));
            }
        }
        return dirs;
    }
}
