package io.ringwatch.transport.aeron;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps the README's code examples compiled and run: each lives in a test between {@code // README:begin} and
 * {@code // README:end}, and the README must hold that text as is.
 */
public final class ReadmeExamples
{
    private static final String BEGIN = "// README:begin\n";
    private static final String END = "    // README:end";

    private ReadmeExamples()
    {
    }

    /**
     * Assert that README.md holds the example of a test source.
     *
     * @param sourcePath the test's source file, from the module's directory.
     * @param what       which example, for the failure message.
     * @throws IOException if a file cannot be read.
     */
    public static void assertReadmeHolds(final String sourcePath, final String what) throws IOException
    {
        final Path here = Path.of(sourcePath);
        final String source = Files.readString(here, StandardCharsets.UTF_8);
        final String example = source.substring(source.indexOf(BEGIN) + BEGIN.length(), source.indexOf(END));
        // the class body is indented by four spaces; the README's copy is not
        final String unindented = example.replaceAll("(?m)^    ", "");
        final String readme = Files.readString(Path.of("../README.md"), StandardCharsets.UTF_8);
        assertTrue(readme.contains(unindented),
            "README.md's " + what + " example differs from " + here + "; copy it again:\n" + unindented);
    }
}
