package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class NativeThreadIdTest
{
    @Test
    void shouldReadEachThreadsOwnKernelId() throws Exception
    {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "not Linux: no /proc/thread-self");
        final int mine = NativeThreadId.current();
        final AtomicInteger other = new AtomicInteger();
        final Thread thread = new Thread(() -> other.set(NativeThreadId.current()));
        thread.start();
        thread.join();

        assertTrue(mine > 0, "tid " + mine);
        assertNotEquals(mine, other.get(), "two threads, two ids");
        // the kernel's own record of this thread names the same id
        final String stat = Files.readString(Path.of("/proc/self/task/" + mine + "/stat"));
        assertEquals(Integer.toString(mine), stat.substring(0, stat.indexOf(' ')));
    }
}
