package io.ringwatch.transport.aeron.internal.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps the commands the documentation gives from drifting away from what is run. The README's test command must be
 * the one {@code .ci/run} executes, and its run command must build this module's jar and start the demo that
 * {@link DemoCommandTest} runs (which takes its arguments from the README). Every {@code ringwatch.jar} command line
 * in the README and under {@code docs/} must name a command {@link Main} dispatches and only options that command's
 * sources read: a renamed option would otherwise leave the operations guide telling people to type an error.
 */
class DocsCommandsTest
{
    private static final Path ROOT = Path.of("..");
    private static final Path CLI = Path.of("src/main/java/io/ringwatch/transport/aeron/internal/cli");
    private static final Path ARGS = Path.of("src/main/java/io/ringwatch/transport/aeron/cli/Args.java");
    private static final Path DOCTOR = ROOT.resolve(
        "native-config/src/main/java/io/ringwatch/nativeconfig/Doctor.java");
    private static final Pattern COMMAND_LINE = Pattern.compile("ringwatch\\.jar ([a-z]+)([^`#&\\n]*)");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z-]*");

    /** Each command {@link Main} dispatches: the class it calls, and the sources that read its options. */
    private static final Map<String, Command> COMMANDS = Map.of(
        "node", new Command("NodeCommand", CLI.resolve("NodeCommand.java")),
        "demo", new Command("DemoCommand", CLI.resolve("DemoCommand.java"), CLI.resolve("TwoLevelDemo.java")),
        "app", new Command("AppCommand", CLI.resolve("AppCommand.java")),
        "driver", new Command("DriverCommand", CLI.resolve("DriverCommand.java")),
        "stat", new Command("StatCommand", CLI.resolve("StatCommand.java")),
        "keygen", new Command("KeygenCommand", CLI.resolve("KeygenCommand.java")),
        "doctor", new Command("Doctor", DOCTOR));

    private record Command(String className, Path... sources)
    {
    }

    /**
     * @return the arguments the README's run command passes to {@code ringwatch.jar}, command first.
     * @throws IOException if the README cannot be read.
     */
    static List<String> readmeDemoArgs() throws IOException
    {
        final String[] steps = readmeCommand("run").split(" && ");
        final List<String> java = List.of(steps[steps.length - 1].trim().split(" +"));
        return java.subList(3, java.size());
    }

    @Test
    void shouldGiveTheTestCommandThatCiRuns() throws IOException
    {
        final List<String> execs = Files.readAllLines(ROOT.resolve(".ci/run"), StandardCharsets.UTF_8).stream()
            .filter(line -> line.startsWith("exec "))
            .toList();
        assertEquals(1, execs.size(), ".ci/run should end in one exec: " + execs);

        assertEquals(execs.get(0).substring("exec ".length()), readmeCommand("test"));
    }

    @Test
    void shouldGiveARunCommandThatBuildsThisModulesJarAndStartsTheDemo() throws IOException
    {
        final String[] steps = readmeCommand("run").split(" && ");
        assertEquals(2, steps.length, "build, then run: " + Arrays.toString(steps));

        final List<String> build = List.of(steps[0].trim().split(" +"));
        assertEquals("mvn", build.get(0), steps[0]);
        assertTrue(build.contains("package") || build.contains("verify") || build.contains("install"), steps[0]);
        assertFalse(build.contains("-pl"), "the jar needs the whole reactor built: " + steps[0]);

        final String pom = Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8);
        final Matcher finalName = Pattern.compile("<finalName>([^<]+)</finalName>").matcher(pom);
        assertTrue(finalName.find(), "transport-aeron/pom.xml names the runnable jar");
        assertTrue(pom.contains("<mainClass>" + Main.class.getName() + "</mainClass>"), "the jar runs " + Main.class);
        final List<String> java = List.of(steps[1].trim().split(" +"));
        assertEquals(List.of("java", "-jar", "transport-aeron/target/" + finalName.group(1) + ".jar"),
            java.subList(0, 3));

        final List<String> args = readmeDemoArgs();
        assertEquals("demo", args.get(0), "DemoCommandTest runs the demo with the README's arguments");
        assertTrue(dispatches("demo", "DemoCommand"), "Main routes demo to DemoCommand");
    }

    @Test
    void shouldGiveOnlyCommandsAndOptionsTheJarTakes() throws IOException
    {
        final List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (var files = Files.walk(ROOT.resolve("docs")))
        {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        int lines = 0;
        final List<String> wrong = new ArrayList<>();
        for (final Path doc : docs)
        {
            // a command continued with a trailing backslash reads as one line
            final String text = Files.readString(doc, StandardCharsets.UTF_8).replaceAll("\\\\\\n\\s*", " ");
            final Matcher m = COMMAND_LINE.matcher(text);
            while (m.find())
            {
                lines++;
                final String name = m.group(1);
                final String where = ROOT.relativize(doc) + ": ringwatch.jar " + name + m.group(2);
                final Command command = COMMANDS.get(name);
                if (command == null || !dispatches(name, command.className()))
                {
                    wrong.add(where + " (no such command)");
                    continue;
                }
                final String sources = read(command.sources()) + read(ARGS);
                final Matcher option = OPTION.matcher(m.group(2));
                while (option.find())
                {
                    if (!sources.contains("\"" + option.group() + "\""))
                    {
                        wrong.add(where + " (" + name + " reads no " + option.group() + ")");
                    }
                }
            }
        }

        assertTrue(lines >= 10, "found only " + lines + " ringwatch.jar command lines: is the pattern still right?");
        assertEquals(List.of(), wrong);
    }

    private static boolean dispatches(final String command, final String className) throws IOException
    {
        final String main = Files.readString(CLI.resolve("Main.java"), StandardCharsets.UTF_8);
        return Pattern.compile("case \"" + command + "\":\\s+(exitCode = |return )?" + className + "\\.(run|main)\\(")
            .matcher(main).find();
    }

    private static String readmeCommand(final String name) throws IOException
    {
        final List<String> readme = Files.readAllLines(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        final String marker = "<!-- " + name + " command:";
        final List<Integer> at = new ArrayList<>();
        for (int i = 0; i < readme.size(); i++)
        {
            if (readme.get(i).startsWith(marker))
            {
                at.add(i);
            }
        }
        assertEquals(1, at.size(), "README.md marks its " + name + " command once with '" + marker + " ... -->'");
        final int i = at.get(0);
        assertEquals(List.of("```", "```"), List.of(readme.get(i + 1), readme.get(i + 3)),
            "the marker is followed by a one-line code block");
        return readme.get(i + 2);
    }

    private static String read(final Path... files) throws IOException
    {
        final StringBuilder all = new StringBuilder();
        for (final Path file : files)
        {
            all.append(Files.readString(file, StandardCharsets.UTF_8));
        }
        return all.toString();
    }
}
