package io.ringwatch.perf;

import io.ringwatch.transport.aeron.RingwatchNode;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The arrow from perf to the runtime points at published packages only: no perf main class uses, and no perf main
 * source imports, anything in an {@code internal} package of a ringwatch module. Checked twice: on the compiled
 * classes, whose constant pools name every class they touch (fully qualified uses included), and on the sources'
 * import lines (an unused import too).
 */
class PublishedApiOnlyTest
{
    /** A ringwatch class name, in a class file's form or a source's, with a package called {@code internal}. */
    private static final Pattern INTERNAL = Pattern.compile("io[./]ringwatch[./](?:[\\w$]+[./])*?internal[./]");
    private static final Path SOURCES = Path.of("src/main/java");

    @Test
    void shouldUseNoInternalClassInAnyPerfClass() throws IOException, URISyntaxException
    {
        final Path classes = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        final List<String> offenders = new ArrayList<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(classes))
        {
            for (final Path file : files.filter(p -> p.toString().endsWith(".class")).toList())
            {
                scanned++;
                for (final String name : internalNames(Files.newInputStream(file), file.toString()))
                {
                    offenders.add(classes.relativize(file) + " uses " + name);
                }
            }
        }
        assertTrue(scanned > 50, "scanned only " + scanned + " classes under " + classes);
        assertEquals(List.of(), offenders);
    }

    @Test
    void shouldImportNoInternalPackageInAnyPerfSource() throws IOException
    {
        final List<String> offenders = new ArrayList<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(SOURCES))
        {
            for (final Path file : files.filter(p -> p.toString().endsWith(".java")).toList())
            {
                scanned++;
                final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++)
                {
                    final String line = lines.get(i).strip();
                    if (line.startsWith("import ") && INTERNAL.matcher(line).find())
                    {
                        offenders.add(SOURCES.relativize(file) + ":" + (i + 1) + " " + line);
                    }
                }
            }
        }
        assertTrue(scanned > 50, "scanned only " + scanned + " sources under " + SOURCES.toAbsolutePath());
        assertEquals(List.of(), offenders);
    }

    @Test
    void shouldFindTheInternalClassesARuntimeClassUses() throws IOException
    {
        // the check itself: RingwatchNode, published, is built on the runtime's internal agent
        final TreeSet<String> names = internalNames(
            RingwatchNode.class.getResourceAsStream("RingwatchNode.class"), "RingwatchNode.class");
        assertTrue(names.stream().anyMatch(n -> n.contains("internal/RingwatchAgent")), names.toString());
        assertFalse(INTERNAL.matcher("import io.ringwatch.transport.aeron.launch.LocalCluster;").find());
        assertTrue(INTERNAL.matcher("import io.ringwatch.transport.aeron.internal.cli.Main;").find());
    }

    /**
     * @param classFile a class file, closed on return.
     * @param what      its name, for an error.
     * @return every string of its constant pool that names something in a ringwatch internal package.
     */
    private static TreeSet<String> internalNames(final InputStream classFile, final String what) throws IOException
    {
        final TreeSet<String> names = new TreeSet<>();
        try (DataInputStream data = new DataInputStream(classFile))
        {
            if (data.readInt() != 0xCAFEBABE)
            {
                throw new IOException("not a class file: " + what);
            }
            data.readUnsignedShort(); // minor version
            data.readUnsignedShort(); // major version
            final int count = data.readUnsignedShort();
            for (int i = 1; i < count; i++)
            {
                final int tag = data.readUnsignedByte();
                switch (tag)
                {
                    case 1 -> // Utf8: class names, descriptors and signatures are all among these
                    {
                        final String utf8 = data.readUTF();
                        if (INTERNAL.matcher(utf8).find())
                        {
                            names.add(utf8);
                        }
                    }
                    case 7, 8, 16, 19, 20 -> data.skipBytes(2);
                    case 15 -> data.skipBytes(3);
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> data.skipBytes(4);
                    case 5, 6 ->
                    {
                        data.skipBytes(8);
                        i++; // a long or double takes two entries
                    }
                    default -> throw new IOException("constant pool tag " + tag + " at entry " + i + " of " + what);
                }
            }
        }
        return names;
    }
}
