package io.ringwatch.transport.aeron.internal;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Loads every class of the given packages before the node joins, so the agent thread never loads one mid-cycle.
 * <p>
 * Why: the first time a duty cycle takes a new path (first notice, first NEW_OBSERVER, first frame from a peer)
 * it would resolve classes, which means reading and inflating jar entries under locks that the process's other,
 * ordinary-priority threads also take. Measured on a loaded 2-core host, such a cycle took 50-120 ms: at
 * δ = 10 ms that alone declares a live node dead. Loading is done without initialising, so no static
 * initialiser runs early.
 */
public final class ClassPreloader
{
    private ClassPreloader()
    {
    }

    /**
     * @param anchors  classes whose jar (or classes directory) is scanned.
     * @param prefixes package prefixes in binary form, e.g. {@code "io.aeron."}.
     * @return number of classes loaded; unreadable locations and classes that fail to load are skipped, since a
     * class that cannot be loaded now would fail the same way later, where it is reported.
     */
    public static int preload(final List<Class<?>> anchors, final List<String> prefixes)
    {
        int loaded = 0;
        final java.util.Set<String> scanned = new java.util.HashSet<>();
        for (final Class<?> anchor : anchors)
        {
            final CodeSource source = anchor.getProtectionDomain().getCodeSource();
            // in a shaded jar every anchor lives in the same file
            if (source == null || !scanned.add(source.getLocation().toString()))
            {
                continue;
            }
            final ClassLoader loader = anchor.getClassLoader();
            try
            {
                final File location = new File(source.getLocation().toURI());
                for (final String name : classNames(location))
                {
                    if (matches(name, prefixes))
                    {
                        loaded += load(name, loader);
                    }
                }
            }
            catch (final IOException | URISyntaxException | IllegalArgumentException ex)
            {
                // nothing to preload from here; the classes still load on demand
            }
        }
        return loaded;
    }

    private static boolean matches(final String name, final List<String> prefixes)
    {
        for (final String prefix : prefixes)
        {
            if (name.startsWith(prefix))
            {
                return true;
            }
        }
        return false;
    }

    private static int load(final String name, final ClassLoader loader)
    {
        try
        {
            Class.forName(name, false, loader);
            return 1;
        }
        catch (final ClassNotFoundException | LinkageError ex)
        {
            return 0;
        }
    }

    private static List<String> classNames(final File location) throws IOException
    {
        if (location.isDirectory())
        {
            final Path root = location.toPath();
            try (Stream<Path> files = Files.walk(root))
            {
                return files.map(p -> root.relativize(p).toString().replace(File.separatorChar, '/'))
                    .filter(ClassPreloader::isClassFile)
                    .map(ClassPreloader::binaryName)
                    .toList();
            }
        }
        try (JarFile jar = new JarFile(location))
        {
            final List<String> names = new java.util.ArrayList<>();
            final Enumeration<JarEntry> entries = jar.entries();
            while (entries.hasMoreElements())
            {
                final String entry = entries.nextElement().getName();
                if (isClassFile(entry))
                {
                    names.add(binaryName(entry));
                }
            }
            return names;
        }
    }

    private static boolean isClassFile(final String path)
    {
        return path.endsWith(".class") && !path.endsWith("module-info.class") && !path.startsWith("META-INF/");
    }

    private static String binaryName(final String path)
    {
        return path.substring(0, path.length() - ".class".length()).replace('/', '.');
    }
}
