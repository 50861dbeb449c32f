package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import java.util.Map;

/**
 * The queue engine's settings, handed to {@link QueueEngineVerticle} as one value: what the engine
 * reports about its process, the largest job it takes, where it logs, and the memory caps the server
 * derives from maxMemory and from the heap.
 *
 * @param info what {@code stats} reports about this process
 * @param maxJobSizeBytes the largest body a put may carry
 * @param binlog where and how the engine logs; {@link BinlogConfig#inMemory()} for no log
 * @param maxMemoryBytes maxMemory; 0 for {@link QueueEngine#DEFAULT_MAX_MEMORY_SHARE} of the job store's limit
 * @param maxHeldStateBytes the heap's share for tubes, watch lists and sessions ({@link QueueEngine#limitHeldState})
 * @param copiesInTransitBytes each front's budget of bodies and documents on their way to it
 *     ({@link QueueEngine#limitCopiesInTransit})
 * @param tubes the config file's {@code tubes}: applied after the replay, each over what the log kept
 *     for that tube
 * @param isTubeConfigDeferred in a replication group: the file's tubes apply when this node becomes
 *     primary instead, since a standby's tubes are its primary's
 */
public record EngineOptions(ServerInfo info, long maxJobSizeBytes, BinlogConfig binlog, long maxMemoryBytes,
    long maxHeldStateBytes, long copiesInTransitBytes, Map<String, TubeSettings> tubes,
    boolean isTubeConfigDeferred) {

  public EngineOptions {
    tubes = Map.copyOf(tubes);
  }

  /** The default maxMemory; tubes, sessions and copies in transit unlimited; no tube settings. */
  public static EngineOptions of(ServerInfo info, long maxJobSizeBytes, BinlogConfig binlog) {
    return new EngineOptions(info, maxJobSizeBytes, binlog, 0, Long.MAX_VALUE, Long.MAX_VALUE, Map.of(), false);
  }

  /** @param bytes maxMemory; 0 for the default share of the job store's limit */
  public EngineOptions withMaxMemory(long bytes) {
    return new EngineOptions(info, maxJobSizeBytes, binlog, bytes, maxHeldStateBytes, copiesInTransitBytes, tubes,
        isTubeConfigDeferred);
  }

  public EngineOptions withMaxHeldState(long bytes) {
    return new EngineOptions(info, maxJobSizeBytes, binlog, maxMemoryBytes, bytes, copiesInTransitBytes, tubes,
        isTubeConfigDeferred);
  }

  public EngineOptions withCopiesInTransit(long bytes) {
    return new EngineOptions(info, maxJobSizeBytes, binlog, maxMemoryBytes, maxHeldStateBytes, bytes, tubes,
        isTubeConfigDeferred);
  }

  /** @param isReplicated whether the node is in a replication group (see {@link #isTubeConfigDeferred}) */
  public EngineOptions withTubeSettings(Map<String, TubeSettings> settings, boolean isReplicated) {
    return new EngineOptions(info, maxJobSizeBytes, binlog, maxMemoryBytes, maxHeldStateBytes, copiesInTransitBytes,
        settings, isReplicated);
  }
}
