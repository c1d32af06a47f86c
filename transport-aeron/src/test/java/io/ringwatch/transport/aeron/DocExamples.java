package io.ringwatch.transport.aeron;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps the documentation's code examples compiled and run: each lives in a test between {@code // README:begin} and
 * {@code // README:end}, and the document under {@code docs/} that shows it must hold that text as is.
 */
public final class DocExamples
{
    private static final String BEGIN = "// README:begin\n";
    private static final String END = "    // README:end";

    private DocExamples()
    {
    }

    /**
     * Assert that a document holds the example of a test source.
     *
     * @param sourcePath the test's source file, from the module's directory.
     * @param docPath    the document, from the repository's root (e.g. {@code docs/library.md}).
     * @param what       which example, for the failure message.
     * @throws IOException if a file cannot be read.
     */
    public static void assertDocHolds(final String sourcePath, final String docPath, final String what)
        throws IOException
    {
        final Path here = Path.of(sourcePath);
        final String source = Files.readString(here, StandardCharsets.UTF_8);
        final String example = source.substring(source.indexOf(BEGIN) + BEGIN.length(), source.indexOf(END));
        // the class body is indented by four spaces; the document's copy is not
        final String unindented = example.replaceAll("(?m)^    ", "");
        final String doc = Files.readString(Path.of("..", docPath), StandardCharsets.UTF_8);
        assertTrue(doc.contains(unindented),
            docPath + "'s " + what + " example differs from " + here + "; copy it again:\n" + unindented);
    }
}
