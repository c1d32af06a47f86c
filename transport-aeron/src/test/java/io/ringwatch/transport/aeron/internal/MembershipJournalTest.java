package io.ringwatch.transport.aeron.internal;

import io.ringwatch.transport.aeron.view.JournalEntry;
import io.ringwatch.transport.aeron.view.JournalLayout;
import io.ringwatch.transport.aeron.view.JournalReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The journal's ring: bounded, oldest overwritten first, read back in order, kept across a reopen by the same rank and
 * replaced when it belongs to another cluster shape.
 */
class MembershipJournalTest
{
    @TempDir
    File dir;

    @Test
    void shouldKeepTheLastCapacityRecordsInOrderAcrossAReopen() throws Exception
    {
        final File file = JournalLayout.fileFor(dir.getPath(), 7, 2);
        try (MembershipJournal journal = new MembershipJournal(file, 7, 5, 2, 4))
        {
            for (int i = 0; i < 6; i++)
            {
                journal.append(JournalLayout.Event.DEAD, i % 5, i, 1, 3);
            }
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.toPath())));
        assertEquals(JournalLayout.fileLength(4), file.length());
        List<JournalEntry> entries = JournalReader.read(file);
        assertEquals(List.of(3L, 4L, 5L, 6L), entries.stream().map(JournalEntry::sequence).toList());
        assertEquals(List.of(2L, 3L, 4L, 5L), entries.stream().map(JournalEntry::incarnation).toList());
        assertTrue(entries.get(0).monoNs() <= entries.get(3).monoNs());

        try (MembershipJournal journal = new MembershipJournal(file, 7, 5, 2, 4))
        {
            journal.append(JournalLayout.Event.JOINED, 4, 9, 4, -1);
        }
        entries = JournalReader.read(file);
        assertEquals(List.of(4L, 5L, 6L, 7L), entries.stream().map(JournalEntry::sequence).toList());
        assertEquals(JournalLayout.Event.JOINED, entries.get(3).event());
        assertEquals(2, entries.get(3).node());

        // another cluster size: the old history cannot be this rank's, so it starts afresh
        try (MembershipJournal journal = new MembershipJournal(file, 7, 6, 2, 4))
        {
            journal.append(JournalLayout.Event.STARTED, 2, 0, 0, -1);
        }
        entries = JournalReader.read(file);
        assertEquals(1, entries.size());
        assertEquals(JournalLayout.Event.STARTED, entries.get(0).event());
    }
}
