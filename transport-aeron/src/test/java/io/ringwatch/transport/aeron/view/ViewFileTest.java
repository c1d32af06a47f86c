package io.ringwatch.transport.aeron.view;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.MembershipListener.FailureCause;
import io.ringwatch.transport.aeron.internal.ViewFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ViewFileTest
{
    @TempDir
    File dir;

    @Test
    void shouldCreateViewFilesWritableByTheirOwnerOnly() throws Exception
    {
        final File file = new File(dir, "view.dat");
        try (ViewFile writer = new ViewFile(file, 5, 4, 0, 100))
        {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.toPath())));
        }
    }

    @Test
    void shouldRecordFailuresEpochAndExclusionForReaders()
    {
        final File file = new File(dir, "view.dat");
        try (ViewFile writer = new ViewFile(file, 5, 70, 3, 100);
            ViewReader reader = new ViewReader(file))
        {
            writer.onFailure(65, 200, FailureCause.DETECTED, 3);
            writer.onFailure(1, 200, FailureCause.NOTICE, 9);
            writer.onViewChange(1, 2, 200);

            final ViewSnapshot v = reader.read(new ViewSnapshot());
            assertEquals(5, v.clusterId());
            assertEquals(70, v.clusterSize());
            assertEquals(3, v.rank());
            assertEquals(ProcessHandle.current().pid(), v.pid());
            assertEquals(1, v.viewEpoch());
            assertEquals(2, v.deadCount());
            assertTrue(v.isDead(65));
            assertTrue(v.isDead(1));
            assertFalse(v.isDead(64));
            assertEquals(ViewLayout.CAUSE_DETECTED, v.cause(65));
            assertEquals(ViewLayout.CAUSE_NOTICE, v.cause(1));
            assertEquals(9, v.reporter(1));
            assertEquals(200, v.detectedAtNs(65));
            assertEquals(NodeState.ACTIVE, v.state());

            assertNull(v.exclusionCause());

            writer.onExcluded(300, ExclusionCause.FENCED, 8);
            reader.read(v);
            assertEquals(NodeState.EXCLUDED, v.state());
            assertEquals(ExclusionCause.FENCED, v.exclusionCause());
            assertEquals(8, v.excludedBy());
            assertEquals(300, v.excludedAtNs());
        }
    }

    @Test
    void shouldKeepIncarnationsPastThirtyOneBitsWhole()
    {
        final long clockRule = 1_795_000_000_000L << 16;
        final File file = new File(dir, "view.dat");
        try (ViewFile writer = new ViewFile(file, 5, 70, 3, 100);
            ViewReader reader = new ViewReader(file))
        {
            writer.joining(clockRule);
            writer.onJoin(69, (1L << 31) + 7, 200);
            final IncarnationTable incarnations = new IncarnationTable(2);
            incarnations.raise(0, (1L << 32) + 9);
            incarnations.raise(68, Long.MAX_VALUE);
            writer.recordIncarnations(incarnations);
            writer.endUpdateIfOpen();

            final ViewSnapshot v = reader.read(new ViewSnapshot());
            assertEquals(clockRule, v.incarnation(3), "its own");
            assertEquals((1L << 31) + 7, v.incarnation(69));
            assertEquals((1L << 32) + 9, v.incarnation(0));
            assertEquals(Long.MAX_VALUE, v.incarnation(68));
            assertEquals(0, v.incarnation(67), "the boot incarnation of a rank that never rejoined");
        }
    }

    @Test
    void shouldWriteRecordCausesAsTheirStableCodes()
    {
        assertEquals(ViewLayout.CAUSE_DETECTED, FailureCause.DETECTED.code());
        assertEquals(ViewLayout.CAUSE_NOTICE, FailureCause.NOTICE.code());
        assertEquals(ViewLayout.CAUSE_LEFT, FailureCause.LEFT.code());
    }

    @Test
    void shouldRefuseFileThatIsNotAView() throws Exception
    {
        final File file = new File(dir, "junk.dat");
        java.nio.file.Files.write(file.toPath(), new byte[256]);
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> new ViewReader(file));
        assertTrue(ex.getMessage().contains("not a ringwatch view file"), ex.getMessage());
    }

    /**
     * A writer keeps the dead count equal to the number of set bits; a reader must never see them disagree.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldNeverShowReaderAHalfWrittenUpdate() throws Exception
    {
        final File file = new File(dir, "view.dat");
        final int n = 512;
        final AtomicBoolean done = new AtomicBoolean();
        try (ViewFile writer = new ViewFile(file, 1, n, 0, 0);
            ViewReader reader = new ViewReader(file))
        {
            final Thread writerThread = new Thread(() ->
            {
                for (int r = 1; r < n; r++)
                {
                    // several failures per epoch, like a merged notice
                    writer.onFailure(r, r, FailureCause.NOTICE, 0);
                    if (r % 3 == 0)
                    {
                        writer.onViewChange(r / 3, r, r);
                    }
                }
                writer.onViewChange(n, n - 1, n);
                done.set(true);
            });
            writerThread.start();

            final ViewSnapshot v = new ViewSnapshot();
            long reads = 0;
            while (!done.get() || reads < 1000)
            {
                reader.read(v);
                int bits = 0;
                for (int r = 0; r < n; r++)
                {
                    bits += v.isDead(r) ? 1 : 0;
                }
                assertEquals(v.deadCount(), bits, "epoch " + v.viewEpoch() + " after " + reads + " reads");
                reads++;
            }
            writerThread.join();
            assertEquals(n - 1, reader.read(v).deadCount());
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldReportAWriterThatDiedMidUpdateInsteadOfSpinning()
    {
        final File file = new File(dir, "stuck.dat");
        try (ViewFile writer = new ViewFile(file, 5, 8, 3, 100);
            ViewReader reader = new ViewReader(file))
        {
            writer.onViewChange(1, 0, 200);
            final java.nio.MappedByteBuffer mapped = org.agrona.IoUtil.mapExistingFile(file, "test");
            final org.agrona.concurrent.UnsafeBuffer raw = new org.agrona.concurrent.UnsafeBuffer(mapped);
            final long sequence = raw.getLongVolatile(ViewLayout.SEQUENCE_OFFSET);
            raw.putLongVolatile(ViewLayout.SEQUENCE_OFFSET, sequence | 1);

            final IllegalStateException running = assertThrows(IllegalStateException.class,
                () -> reader.read(new ViewSnapshot(), TimeUnit.MILLISECONDS.toNanos(50)));
            assertTrue(running.getMessage().contains("no consistent view within 50 ms"), running.getMessage());
            assertTrue(running.getMessage().contains("is running but has held an update open"), running.getMessage());

            raw.putLong(ViewLayout.PID_OFFSET, Long.MAX_VALUE, java.nio.ByteOrder.LITTLE_ENDIAN);
            final IllegalStateException dead = assertThrows(IllegalStateException.class,
                () -> reader.read(new ViewSnapshot(), TimeUnit.MILLISECONDS.toNanos(50)));
            assertTrue(dead.getMessage().contains("died in the middle of an update"), dead.getMessage());

            raw.putLongVolatile(ViewLayout.SEQUENCE_OFFSET, sequence);
            assertEquals(1, reader.read(new ViewSnapshot()).viewEpoch());
            org.agrona.IoUtil.unmap(mapped);
        }
    }
}
