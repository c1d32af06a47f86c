package io.ringwatch.transport.aeron;

import io.ringwatch.core.config.BootSeeds;
import io.ringwatch.core.config.Durations;
import io.ringwatch.core.protocol.BrokenRules;
import io.ringwatch.transport.aeron.internal.DeadlineIdleStrategy;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.concurrent.TimeUnit;

/**
 * Settings of a ringwatch node as system properties ({@code ringwatch.*}), with defaults. Durations are read by
 * {@link Durations#parseNs}, so they need their unit ({@code -Dringwatch.suspicion.timeout=10ms}); a bare number is
 * an error naming the property. {@link RingwatchContext} reads these as its defaults; setters on the context win.
 */
public final class RingwatchConfiguration
{
    /**
     * Transport ({@link TransportMode}): {@code ipc} (one host: shared-memory slots, IPC publications), {@code udp}
     * (heartbeats and control on Aeron UDP) or {@code rdma} (heartbeats by RDMA WRITE, control and notices on Aeron
     * UDP as with {@code udp}). {@code rdma} needs {@code rdma=host:port} on every member line of the cluster file
     * ({@link ClusterConfig}) and a host where RDMA is usable ({@code ringwatch.jar doctor}); its own settings are
     * transport-rdma's {@code ringwatch.rdma.*} properties ({@code RdmaConfiguration}). Unset, it follows the cluster
     * file: {@code ipc} when every member is on one host, {@code udp} when they are on several.
     */
    public static final String TRANSPORT_PROP_NAME = "ringwatch.transport";

    /**
     * Broadcast schedule of failure notices: {@code double-hypercube} (paper 002, default) or {@code binomial-graph}
     * (paper 001). Every node of a cluster must run the same one.
     */
    public static final String BROADCAST_PROP_NAME = "ringwatch.broadcast";
    /** Default broadcast schedule. */
    public static final String BROADCAST_DEFAULT = "double-hypercube";

    /**
     * What a node does when it can no longer count a majority of the cluster alive: {@code majority} (default: it
     * stops, exit 3, so at most one side of a partition goes on) or {@code none} (the paper's: every side goes on).
     */
    public static final String PARTITION_POLICY_PROP_NAME = "ringwatch.partition.policy";
    /** Default partition policy. */
    public static final String PARTITION_POLICY_DEFAULT = "majority";

    /** η, overriding the cluster file. */
    public static final String HEARTBEAT_PERIOD_PROP_NAME = "ringwatch.heartbeat.period";
    /** Default η when neither property nor cluster file gives one. */
    public static final long HEARTBEAT_PERIOD_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /** δ, overriding the cluster file. */
    public static final String SUSPICION_TIMEOUT_PROP_NAME = "ringwatch.suspicion.timeout";
    /** Default δ. */
    public static final long SUSPICION_TIMEOUT_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(10);

    /** A duty cycle this late past its deadline means this node was descheduled: restart the window. */
    public static final String PAUSE_THRESHOLD_PROP_NAME = "ringwatch.pause.threshold";

    /** Extra time on the first suspicion window so peers still launching are not suspected. */
    public static final String STARTUP_GRACE_PROP_NAME = "ringwatch.startup.grace";
    /** Default startup grace: covers a JVM launch on a loaded host. */
    public static final long STARTUP_GRACE_DEFAULT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * Start = join: the seeds, ranks 0..S-1, form the initial membership and every other rank joins when it is ready;
     * the same on every node. S = N boots every rank as a member, as before the join protocol.
     */
    public static final String SEEDS_PROP_NAME = "ringwatch.seeds";

    /**
     * Idle strategy: busy-spin, yield, backoff, deadline (sleep to the next protocol deadline, at most
     * {@link #IDLE_MAX_SLEEP_PROP_NAME}), sleep-&lt;duration&gt; (e.g. sleep-100us).
     */
    public static final String IDLE_STRATEGY_PROP_NAME = "ringwatch.idle.strategy";
    /** Default idle strategy: the low-noise profile's. */
    public static final String IDLE_STRATEGY_DEFAULT = "sleep-100us";

    /**
     * Longest sleep of an agent with the deadline (low-noise) idle strategy: the most a control frame (notice, probe,
     * probe answer) waits to be polled while the agent sleeps. Default η: a node beats every η, so it is woken that
     * often anyway and the cap adds no wake-up; a notice then waits at most η per hop, δ/10 at the usual ratio, as a
     * heartbeat already does. A smaller cap polls notices sooner at the price of a wake-up per cap (1 ms, the old
     * fixed cap, cost DGEMM 6-9 % on a shared core at every η). At most {@link #IDLE_MAX_SLEEP_LIMIT_NS}.
     */
    public static final String IDLE_MAX_SLEEP_PROP_NAME = "ringwatch.idle.max.sleep";
    /**
     * Upper bound of the idle cap, also for η above it: the agent hosts the Aeron client's conductor, which must run
     * well within the driver's 5 s client liveness timeout (keepalives every 500 ms).
     */
    public static final long IDLE_MAX_SLEEP_LIMIT_NS = TimeUnit.SECONDS.toNanos(1);

    /** CPU to pin the agent thread to; -1 leaves it unpinned. */
    public static final String CPU_PROP_NAME = "ringwatch.cpu";
    /** Default: no pinning. */
    public static final int CPU_DEFAULT = -1;

    /**
     * SCHED_FIFO priority (1..99) for the agent thread, so a sleeping agent is woken on time however busy the
     * host's fair-class threads are; 0 leaves it in the ordinary class. Needs root, CAP_SYS_NICE or RLIMIT_RTPRIO.
     */
    public static final String REALTIME_PRIORITY_PROP_NAME = "ringwatch.realtime.priority";

    /** Default: ordinary scheduling. */
    public static final int REALTIME_PRIORITY_DEFAULT = 0;

    /**
     * In a cluster of at most this many nodes every node connects a control publication to every other before
     * joining, so no notice waits for one to be set up; larger clusters connect to the schedule's usual peers
     * and add others on demand. Default 32.
     */
    public static final String PRECREATE_ALL_MAX_PROP_NAME = "ringwatch.precreate.all.max";

    /** Default for {@link #PRECREATE_ALL_MAX_PROP_NAME}. */
    public static final int PRECREATE_ALL_MAX_DEFAULT = 32;

    /**
     * Load the runtime's classes before joining (see {@link ClassPreloader}); costs a fraction of a second at start
     * and keeps class loading out of the agent's duty cycle. Default true.
     */
    public static final String PRELOAD_PROP_NAME = "ringwatch.preload";

    /**
     * {@code embedded}: launch a media driver in this process; {@code external}: use the one at aeron.dir. Unset, it
     * follows the cluster file: embedded when every member is on one host, external (the host's driver) otherwise.
     */
    public static final String DRIVER_PROP_NAME = "ringwatch.driver";

    /** Who runs the node's agent: {@code dedicated}, {@code invoker} or {@code unstarted} ({@link ThreadingMode}). */
    public static final String THREADING_MODE_PROP_NAME = "ringwatch.threading.mode";
    /** Default threading mode: a thread of the node's own. */
    public static final String THREADING_MODE_DEFAULT = "dedicated";

    /** Fragments polled per subscription per duty cycle. */
    public static final String FRAGMENT_LIMIT_PROP_NAME = "ringwatch.fragment.limit";
    /** Default fragment limit. */
    public static final int FRAGMENT_LIMIT_DEFAULT = 16;

    /**
     * {@code SO_RCVBUF} asked for on the UDP heartbeat socket: room for a burst of foreign datagrams between two duty
     * cycles (the kernel caps it at {@code net.core.rmem_max}).
     */
    public static final String HEARTBEAT_RCVBUF_PROP_NAME = "ringwatch.udp.heartbeat.rcvbuf";
    /** Default heartbeat socket receive buffer: 4 MiB, about 3,000 queued datagrams of any size on Linux. */
    public static final int HEARTBEAT_RCVBUF_DEFAULT = 4 * 1024 * 1024;

    /**
     * Group that may also read and write the heartbeat slot and view files (mode {@code 0660}); unset (default):
     * owner only ({@code 0600}).
     */
    public static final String FILES_GROUP_PROP_NAME = "ringwatch.files.group";

    /** Base stream id of control/notice traffic over IPC (plus the destination rank); over UDP the id is derived
     * from the cluster key instead ({@link io.ringwatch.transport.aeron.internal.ControlStreams}). */
    public static final String CONTROL_STREAM_ID_PROP_NAME = "ringwatch.control.stream.id";
    /** Default control stream id. */
    public static final int CONTROL_STREAM_ID_DEFAULT = 0x52570000;

    /** Stream id of UDP heartbeat frames. */
    public static final String HEARTBEAT_STREAM_ID_PROP_NAME = "ringwatch.heartbeat.stream.id";
    /** Default heartbeat stream id. */
    public static final int HEARTBEAT_STREAM_ID_DEFAULT = 0x52560000;

    /** Term length of ringwatch publications; control traffic is tiny, so keep the log buffers small. */
    public static final String TERM_LENGTH_PROP_NAME = "ringwatch.term.length";
    /** Default term length (Aeron's minimum). */
    public static final int TERM_LENGTH_DEFAULT = 64 * 1024;

    /** Frames held for retry when a publication is back-pressured or not yet connected. */
    public static final String SEND_QUEUE_CAPACITY_PROP_NAME = "ringwatch.send.queue.capacity";
    /** Default retry queue capacity. */
    public static final int SEND_QUEUE_CAPACITY_DEFAULT = 256;

    /** How long a queued frame is retried before it is dropped and counted. */
    public static final String SEND_RETRY_TIMEOUT_PROP_NAME = "ringwatch.send.retry.timeout";
    /** Default retry timeout. */
    public static final long SEND_RETRY_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);

    /**
     * Frame authentication: {@code required} (every frame signed and checked under the cluster keyring) or {@code off}
     * (anyone who can reach a node can speak for any rank). Unset: required when a key file is configured, else off.
     * Off with a key file configured is refused as a contradiction.
     */
    public static final String AUTH_PROP_NAME = "ringwatch.auth";

    /**
     * Cluster keyring: one hex key per line, the first signs, up to two more are accepted (rotation); {@code #}
     * comments. Refused if group or others may read or write it. Make one with {@code ringwatch.jar keygen}.
     */
    public static final String AUTH_KEY_FILE_PROP_NAME = "ringwatch.auth.key.file";

    /**
     * Record the agent's heartbeat emission error and duty-cycle lengths into a jitter file beside the view file
     * ({@code ringwatch-jitter-<cluster>-<rank>.dat}), for benchmarks and tools. Default false: the bare agent runs.
     */
    public static final String JITTER_FILE_PROP_NAME = "ringwatch.jitter.file";

    /**
     * Negative controls only: protocol rules switched off, comma-separated names as the simulator's {@code --break}
     * takes them ({@code BrokenRules.named}), e.g. {@code join-challenge}. Never set in real use: a
     * node started with it says so on stderr. Unset: none.
     */
    public static final String BROKEN_RULES_PROP_NAME = "ringwatch.test.broken.rules";

    /**
     * How long the media driver's heartbeat in its CnC file may stand still before the node takes its driver for
     * lost (hung) and stops with exit {@link #EXIT_DRIVER_LOST}. A driver whose process is gone is lost sooner, once
     * its heartbeat is a few beats late ({@code DriverWatch}), which is the usual case (a crashed driver). Default:
     * 10δ, at least {@link #DRIVER_TIMEOUT_MIN_DEFAULT_NS}: only a hung driver waits this long, and shorter defaults
     * (δ/2, then 2δ) stopped healthy nodes on a loaded 2-core CI host whose driver stood still for up to 547 ms
     * while thirteen JVMs started.
     */
    public static final String DRIVER_TIMEOUT_PROP_NAME = "ringwatch.driver.timeout";

    /** Floor of the default driver timeout: a hundred beats of ringwatch's drivers, so a driver stall is no loss. */
    public static final long DRIVER_TIMEOUT_MIN_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);

    /**
     * Exit code of a node process that was declared dead by the others (fail-stop): restart me with a new incarnation,
     * i.e. run it again with {@code node --join}, which joins the running cluster under an incarnation greater than any
     * it used before. A supervisor restarting on this code (systemd {@code Restart=on-failure}) brings it back.
     */
    public static final int EXIT_FENCED = 3;
    /**
     * Exit code of a process that failed to start for a reason that can pass without a change to its configuration:
     * no media driver at its Aeron directory (yet), a port held by another process, a host that does not resolve.
     * A supervisor may restart it. (The name is historical: configuration that can never work is
     * {@link #EXIT_CONFIG_INVALID}.)
     */
    public static final int EXIT_CONFIG_ERROR = 2;

    /**
     * Exit code of a process refused at start because its configuration can never work as it stands: a bad command
     * line, cluster file or key file, settings out of range. Restarting it changes nothing, so the shipped unit
     * files list it in {@code RestartPreventExitStatus}. 78 is {@code EX_CONFIG} of sysexits(3).
     */
    public static final int EXIT_CONFIG_INVALID = 78;

    /**
     * Exit code of a node process refused at start because the same rank of the same cluster already runs on this
     * host with the same Aeron directory: it stopped before touching any file, so the running node is unharmed. A
     * supervisor restarting it would only be refused again while the other runs: the unit files do not restart it.
     */
    public static final int EXIT_ALREADY_RUNNING = 5;

    /**
     * Exit code of a node process that lost its media driver (it can neither hear nor be heard) or, with transport
     * {@code rdma}, whose HCA port went down (it can no longer hear its emitter): a local fault, so it stops rather
     * than suspect healthy peers, and its observer reports it.
     */
    public static final int EXIT_DRIVER_LOST = 4;

    /**
     * Exit code of a node whose peers told it, by their hellos, that they sign with another key: over UDP once it
     * heard nobody and stopped (ISOLATED), over IPC once its grace is over and no peer that answered agrees with it.
     * It can never be heard with the key it has, so the unit files do not restart it. 77 is
     * {@code EX_NOPERM} of sysexits(3). (A node stopped so for a configuration that differs exits
     * {@link #EXIT_CONFIG_INVALID}.)
     */
    public static final int EXIT_KEY_MISMATCH = 77;

    private RingwatchConfiguration()
    {
    }

    /**
     * @return {@link #TRANSPORT_PROP_NAME}, or null to follow the cluster file.
     */
    public static String transport()
    {
        return System.getProperty(TRANSPORT_PROP_NAME);
    }

    /**
     * @param fallbackNs value when the property is absent.
     * @return η in ns.
     */
    public static long heartbeatPeriodNs(final long fallbackNs)
    {
        return Durations.propertyNs(HEARTBEAT_PERIOD_PROP_NAME, fallbackNs);
    }

    /**
     * @param fallbackNs value when the property is absent.
     * @return δ in ns.
     */
    public static long suspicionTimeoutNs(final long fallbackNs)
    {
        return Durations.propertyNs(SUSPICION_TIMEOUT_PROP_NAME, fallbackNs);
    }

    /**
     * @param fallbackNs value when the property is absent.
     * @return pause threshold in ns.
     */
    public static long pauseThresholdNs(final long fallbackNs)
    {
        return Durations.propertyNs(PAUSE_THRESHOLD_PROP_NAME, fallbackNs);
    }

    /**
     * @return the seeds from {@link #SEEDS_PROP_NAME}, or -1 for the default
     * ({@link io.ringwatch.core.config.BootSeeds#DEFAULT}, at most N).
     */
    public static int seeds()
    {
        final String value = System.getProperty(SEEDS_PROP_NAME);
        try
        {
            return value == null ? -1 : Integer.parseInt(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(SEEDS_PROP_NAME + " must be an integer: " + value, ex);
        }
    }

    /**
     * @return startup grace in ns.
     */
    public static long startupGraceNs()
    {
        return Durations.propertyNs(STARTUP_GRACE_PROP_NAME, STARTUP_GRACE_DEFAULT_NS);
    }

    /**
     * @return idle strategy name.
     */
    public static String idleStrategy()
    {
        return System.getProperty(IDLE_STRATEGY_PROP_NAME, IDLE_STRATEGY_DEFAULT);
    }

    /**
     * @param heartbeatPeriodNs η.
     * @return {@link #IDLE_MAX_SLEEP_PROP_NAME}, or its default for this η: η, at most
     * {@link #IDLE_MAX_SLEEP_LIMIT_NS}.
     */
    public static long idleMaxSleepNs(final long heartbeatPeriodNs)
    {
        return Durations.propertyNs(IDLE_MAX_SLEEP_PROP_NAME, Math.min(heartbeatPeriodNs, IDLE_MAX_SLEEP_LIMIT_NS));
    }

    /**
     * @return CPU to pin to, or -1.
     */
    public static int cpu()
    {
        return Integer.getInteger(CPU_PROP_NAME, CPU_DEFAULT);
    }

    /**
     * @return SCHED_FIFO priority for the agent thread, 0 for none.
     */
    public static int realtimePriority()
    {
        return Integer.getInteger(REALTIME_PRIORITY_PROP_NAME, REALTIME_PRIORITY_DEFAULT);
    }

    /**
     * @return largest cluster in which all control publications are created up front.
     */
    public static int preCreateAllMax()
    {
        return Integer.getInteger(PRECREATE_ALL_MAX_PROP_NAME, PRECREATE_ALL_MAX_DEFAULT);
    }

    /**
     * @return whether to keep a jitter file ({@link #JITTER_FILE_PROP_NAME}).
     */
    public static boolean jitterFile()
    {
        return Boolean.getBoolean(JITTER_FILE_PROP_NAME);
    }

    /**
     * @return whether to preload the runtime's classes before joining.
     */
    public static boolean preload()
    {
        return !"false".equalsIgnoreCase(System.getProperty(PRELOAD_PROP_NAME, "true"));
    }

    /**
     * @return {@link #BROADCAST_PROP_NAME} or its default.
     */
    public static String broadcast()
    {
        return System.getProperty(BROADCAST_PROP_NAME, BROADCAST_DEFAULT);
    }

    /**
     * @return {@link #PARTITION_POLICY_PROP_NAME} or its default.
     */
    public static String partitionPolicy()
    {
        return System.getProperty(PARTITION_POLICY_PROP_NAME, PARTITION_POLICY_DEFAULT);
    }

    /**
     * @return {@link #DRIVER_PROP_NAME}, or null to follow the cluster file.
     */
    public static String driver()
    {
        return System.getProperty(DRIVER_PROP_NAME);
    }

    /**
     * @return threading mode name.
     */
    public static String threadingMode()
    {
        return System.getProperty(THREADING_MODE_PROP_NAME, THREADING_MODE_DEFAULT);
    }

    /**
     * @return {@link #BROKEN_RULES_PROP_NAME}, empty when unset.
     */
    public static String brokenRules()
    {
        return System.getProperty(BROKEN_RULES_PROP_NAME, "");
    }

    /**
     * @return {@link #FILES_GROUP_PROP_NAME}, or null when unset.
     */
    public static String filesGroup()
    {
        return System.getProperty(FILES_GROUP_PROP_NAME);
    }

    /**
     * @return {@link #HEARTBEAT_RCVBUF_PROP_NAME}.
     */
    public static int heartbeatReceiveBufferBytes()
    {
        return Integer.getInteger(HEARTBEAT_RCVBUF_PROP_NAME, HEARTBEAT_RCVBUF_DEFAULT);
    }

    /**
     * @return fragment limit.
     */
    public static int fragmentLimit()
    {
        return Integer.getInteger(FRAGMENT_LIMIT_PROP_NAME, FRAGMENT_LIMIT_DEFAULT);
    }

    /**
     * @return control stream id.
     */
    public static int controlStreamId()
    {
        return Integer.getInteger(CONTROL_STREAM_ID_PROP_NAME, CONTROL_STREAM_ID_DEFAULT);
    }

    /**
     * @return heartbeat stream id.
     */
    public static int heartbeatStreamId()
    {
        return Integer.getInteger(HEARTBEAT_STREAM_ID_PROP_NAME, HEARTBEAT_STREAM_ID_DEFAULT);
    }

    /**
     * @return term length.
     */
    public static int termLength()
    {
        return Integer.getInteger(TERM_LENGTH_PROP_NAME, TERM_LENGTH_DEFAULT);
    }

    /**
     * @return retry queue capacity.
     */
    public static int sendQueueCapacity()
    {
        return Integer.getInteger(SEND_QUEUE_CAPACITY_PROP_NAME, SEND_QUEUE_CAPACITY_DEFAULT);
    }

    /**
     * @param suspicionTimeoutNs δ.
     * @return {@link #DRIVER_TIMEOUT_PROP_NAME}, or its default for this δ.
     */
    public static long driverTimeoutNs(final long suspicionTimeoutNs)
    {
        return Durations.propertyNs(DRIVER_TIMEOUT_PROP_NAME,
            Math.max(10 * suspicionTimeoutNs, DRIVER_TIMEOUT_MIN_DEFAULT_NS));
    }

    /**
     * @return retry timeout.
     */
    public static long sendRetryTimeoutNs()
    {
        return Durations.propertyNs(SEND_RETRY_TIMEOUT_PROP_NAME, SEND_RETRY_TIMEOUT_DEFAULT_NS);
    }

    /**
     * @return {@link #AUTH_PROP_NAME}, or null when unset.
     */
    public static String auth()
    {
        return System.getProperty(AUTH_PROP_NAME);
    }

    /**
     * @return {@link #AUTH_KEY_FILE_PROP_NAME}, or null when unset.
     */
    public static String authKeyFile()
    {
        return System.getProperty(AUTH_KEY_FILE_PROP_NAME);
    }

    /**
     * Build an idle strategy from its name.
     *
     * @param name         busy-spin, yield, backoff, deadline or sleep-&lt;duration&gt;.
     * @param maxSleepNs   longest sleep of the deadline strategy, see {@link #IDLE_MAX_SLEEP_PROP_NAME}.
     * @return a new idle strategy.
     * @throws IllegalArgumentException for an unknown name.
     */
    public static IdleStrategy newIdleStrategy(final String name, final long maxSleepNs)
    {
        if ("busy-spin".equals(name))
        {
            return new BusySpinIdleStrategy();
        }
        if ("yield".equals(name))
        {
            return new YieldingIdleStrategy();
        }
        if ("backoff".equals(name))
        {
            return new BackoffIdleStrategy(
                10, 20, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(100));
        }
        if ("deadline".equals(name))
        {
            return new DeadlineIdleStrategy(maxSleepNs);
        }
        if (name != null && name.startsWith("sleep-"))
        {
            final long sleepNs = Durations.parseNs(IDLE_STRATEGY_PROP_NAME, name.substring("sleep-".length()));
            return new SleepingIdleStrategy(sleepNs);
        }
        throw new IllegalArgumentException(IDLE_STRATEGY_PROP_NAME + "=" + name +
            ": expected busy-spin, yield, backoff, deadline or sleep-<duration>");
    }
}
