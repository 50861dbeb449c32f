package io.github.vertxbeanstalkd.persistence;

import io.vertx.core.json.JsonObject;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * The binlog settings: where the log lives (null keeps jobs in memory only), the fsync policy, the
 * segment size, and whether a damaged log may be started by skipping what cannot be read.
 *
 * <p>Read from flat keys ({@code "binlog.dir": "/var/lib/beanstalkd"}) or from a nested object
 * ({@code "binlog": {"dir": ...}}); a flat key wins over the nested one, and an environment variable
 * of {@link #ENVIRONMENT} (merged into the same JSON by vertx-config) over both.
 */
public record BinlogConfig(Path dir, FsyncPolicy fsync, long segmentSizeBytes, boolean isRecoverRequested) {
  /** BEHAVIOURS.md: beanstalkd's {@code -s} default, 10 MiB. */
  public static final long DEFAULT_SEGMENT_SIZE = 10L * 1024 * 1024;
  /** BEHAVIOURS.md: beanstalkd's {@code -f} default, 50 ms. */
  public static final FsyncPolicy DEFAULT_FSYNC =
      new FsyncPolicy.Interval(FsyncPolicy.DEFAULT_INTERVAL_MILLIS);
  /** Below this a segment holds too few records to be worth a file. */
  public static final long MIN_SEGMENT_SIZE = 4096;
  public static final long MAX_SEGMENT_SIZE = 1L << 30;
  /** The keys this record reads, for the server config's unknown-key check. */
  public static final Set<String> KEYS =
      Set.of("binlog", "binlog.dir", "binlog.fsync", "binlog.segmentSize", "binlog.recover");
  /** Environment variable to config key; the environment wins over the file, as in ServerConfig. */
  public static final Map<String, String> ENVIRONMENT = Map.of(
      "BEANSTALKD_BINLOG_DIR", "binlog.dir",
      "BEANSTALKD_BINLOG_FSYNC", "binlog.fsync",
      "BEANSTALKD_BINLOG_SEGMENT_SIZE", "binlog.segmentSize",
      "BEANSTALKD_BINLOG_RECOVER", "binlog.recover");

  public BinlogConfig {
    if (fsync == null) {
      throw new IllegalArgumentException("config: 'binlog.fsync' must be set");
    }
    if (segmentSizeBytes < MIN_SEGMENT_SIZE || segmentSizeBytes > MAX_SEGMENT_SIZE) {
      throw new IllegalArgumentException("config: 'binlog.segmentSize' must be between "
          + MIN_SEGMENT_SIZE + " and " + MAX_SEGMENT_SIZE + ", got " + segmentSizeBytes);
    }
  }

  /** No binlog: jobs live in memory only. */
  public static BinlogConfig inMemory() {
    return new BinlogConfig(null, DEFAULT_FSYNC, DEFAULT_SEGMENT_SIZE, false);
  }

  public boolean isEnabled() {
    return dir != null;
  }

  /**
   * Validates the binlog keys of the merged server configuration; other keys are ignored.
   *
   * @throws IllegalArgumentException with a one-line message naming the offending key
   */
  public static BinlogConfig fromJson(JsonObject json) {
    JsonObject nested;
    Object section = json.getValue("binlog");
    if (section == null) {
      nested = new JsonObject();
    } else if (section instanceof JsonObject o) {
      nested = o;
    } else {
      throw new IllegalArgumentException("config: 'binlog' must be an object, got " + section);
    }
    for (String key : nested.fieldNames()) {
      if (!KEYS.contains("binlog." + key)) {
        throw new IllegalArgumentException("config: unknown key 'binlog." + key + "'");
      }
    }
    Object dir = value(json, nested, "dir");
    Object fsync = value(json, nested, "fsync");
    Object size = value(json, nested, "segmentSize");
    Object recover = value(json, nested, "recover");
    return new BinlogConfig(
        dir == null ? null : path(dir),
        fsync == null ? DEFAULT_FSYNC : FsyncPolicy.parse(fsync),
        size == null ? DEFAULT_SEGMENT_SIZE : wholeNumber(size),
        recover != null && flag(recover));
  }

  private static Object value(JsonObject json, JsonObject nested, String key) {
    for (Map.Entry<String, String> e : ENVIRONMENT.entrySet()) {
      if (e.getValue().equals("binlog." + key) && json.getValue(e.getKey()) != null) {
        return json.getValue(e.getKey());
      }
    }
    Object flat = json.getValue("binlog." + key);
    return flat != null ? flat : nested.getValue(key);
  }

  private static Path path(Object v) {
    if (!(v instanceof String s) || s.isBlank()) {
      throw new IllegalArgumentException("config: 'binlog.dir' must be a non-empty path, got " + v);
    }
    try {
      return Path.of(s.strip());
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("config: 'binlog.dir' is not a valid path: " + e.getMessage());
    }
  }

  private static long wholeNumber(Object v) {
    if (v instanceof Number n && n.doubleValue() == n.longValue()) {
      return n.longValue();
    }
    if (v instanceof String s && s.strip().matches("\\d{1,18}")) {
      return Long.parseLong(s.strip());
    }
    throw new IllegalArgumentException("config: 'binlog.segmentSize' must be a whole number, got " + v);
  }

  private static boolean flag(Object v) {
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof String s && (s.strip().equals("true") || s.strip().equals("false"))) {
      return Boolean.parseBoolean(s.strip());
    }
    throw new IllegalArgumentException("config: 'binlog.recover' must be true or false, got " + v);
  }
}
