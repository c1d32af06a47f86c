package io.ringwatch.transport.aeron.internal;

import java.nio.file.Path;

/**
 * Names of the start barrier's files, shared by the node that waits at it ({@code node --start-after FILE}) and the
 * launcher that opens it, so the two cannot drift apart.
 */
public final class StartBarrier
{
    private StartBarrier()
    {
    }

    /**
     * @param go   the barrier file whose creation releases the nodes.
     * @param rank a node.
     * @return the file the node creates once it is ready: {@code FILE.<rank>.ready} beside {@code go}.
     */
    public static Path readyFile(final Path go, final int rank)
    {
        return go.resolveSibling(go.getFileName() + "." + rank + ".ready");
    }
}
