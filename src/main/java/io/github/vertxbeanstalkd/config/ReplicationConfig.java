package io.github.vertxbeanstalkd.config;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;

/**
 * The {@code replication} section (REPLICATION.md): whether this node joins a group,
 * the group's name, how many standbys must have written a change before its reply, how long a
 * change waits for them, and what a primary with too few of them does.
 *
 * @param group defaults to {@code eventBus.address}: every member shares that address, which only
 *     the primary consumes
 * @param minAcks standbys that must have written a change before the client gets its reply; 0 is
 *     asynchronous
 * @param ackTimeoutMillis how long a change waits for {@code minAcks}
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
public record ReplicationConfig(boolean isEnabled, String group, int minAcks, long ackTimeoutMillis,
    WhenTooFewStandbys whenTooFewStandbys) {
  public static final int DEFAULT_MIN_ACKS = 1;
  public static final long DEFAULT_ACK_TIMEOUT_MILLIS = 1_000;
  /** A reply held for longer than an hour is a mistake in the file, not a wish. */
  public static final long MAX_ACK_TIMEOUT_MILLIS = 3_600_000;
  static final String SECTION = "replication";
  static final Set<String> KEYS = Set.of("enabled", "group", "minAcks", "ackTimeoutMillis", "whenTooFewStandbys");
  static final Map<String, String> ENVIRONMENT = Map.of(
      "BEANSTALKD_REPLICATION_ENABLED", "replication.enabled",
      "BEANSTALKD_REPLICATION_GROUP", "replication.group",
      "BEANSTALKD_REPLICATION_MIN_ACKS", "replication.minAcks",
      "BEANSTALKD_REPLICATION_ACK_TIMEOUT_MILLIS", "replication.ackTimeoutMillis",
      "BEANSTALKD_REPLICATION_WHEN_TOO_FEW_STANDBYS", "replication.whenTooFewStandbys");

  /** What a primary whose lease is fresh does with fewer caught-up standbys than {@code minAcks}. */
  public enum WhenTooFewStandbys {
    /** Changes are acknowledged on the primary alone, and the node says it is degraded. */
    SERVE,
    /** Changes answer INTERNAL_ERROR until enough standbys are back; reads, reserves and deletes go on. */
    REFUSE;

    /** The word of the configuration: {@code "serve"} or {@code "refuse"}. */
    public String word() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    static WhenTooFewStandbys parse(Object v) {
      for (WhenTooFewStandbys w : values()) {
        if (v instanceof String s && s.strip().equals(w.word())) {
          return w;
        }
      }
      throw new IllegalArgumentException(
          "config: 'replication.whenTooFewStandbys' must be \"serve\" or \"refuse\", got " + ConfigSection.shown(v));
    }
  }

  public ReplicationConfig {
    if (group == null || group.isBlank()) {
      throw new IllegalArgumentException("config: 'replication.group' must be a non-empty string, got " + ConfigSection.shown(group));
    }
    if (minAcks < 0) {
      throw new IllegalArgumentException("config: 'replication.minAcks' must be 0 or more, got " + minAcks);
    }
    if (ackTimeoutMillis < 1 || ackTimeoutMillis > MAX_ACK_TIMEOUT_MILLIS) {
      throw new IllegalArgumentException("config: 'replication.ackTimeoutMillis' must be between 1 and "
          + MAX_ACK_TIMEOUT_MILLIS + ", got " + ackTimeoutMillis);
    }
    if (whenTooFewStandbys == null) {
      throw new IllegalArgumentException("config: 'replication.whenTooFewStandbys' must be set");
    }
  }

  /** Not replicated: the default. */
  public static ReplicationConfig off() {
    return new ReplicationConfig(false, EventBusConfig.DEFAULT_ADDRESS, DEFAULT_MIN_ACKS, DEFAULT_ACK_TIMEOUT_MILLIS,
        WhenTooFewStandbys.SERVE);
  }

  /** A member of {@code group} with the default guarantees: one standby's write, a second's wait, "serve". */
  public static ReplicationConfig inGroup(String group) {
    return new ReplicationConfig(true, group, DEFAULT_MIN_ACKS, DEFAULT_ACK_TIMEOUT_MILLIS, WhenTooFewStandbys.SERVE);
  }

  public ReplicationConfig withMinAcks(int count) {
    return new ReplicationConfig(isEnabled, group, count, ackTimeoutMillis, whenTooFewStandbys);
  }

  public ReplicationConfig withAckTimeoutMillis(long millis) {
    return new ReplicationConfig(isEnabled, group, minAcks, millis, whenTooFewStandbys);
  }

  public ReplicationConfig withWhenTooFewStandbys(WhenTooFewStandbys choice) {
    return new ReplicationConfig(isEnabled, group, minAcks, ackTimeoutMillis, choice);
  }

  /** {@code minAcks} 0: replies do not wait for any standby. */
  public boolean isAsynchronous() {
    return minAcks == 0;
  }

  /**
   * @param defaultGroup the validated {@code eventBus.address}
   * @param hasBinlogDir whether {@code binlog.dir} is set: a member needs a log of its own
   */
  static ReplicationConfig fromJson(JsonObject json, String defaultGroup, boolean hasBinlogDir) {
    ConfigSection section = new ConfigSection(SECTION, KEYS, ENVIRONMENT, json);
    boolean isEnabled = section.flag("enabled", false);
    String group = section.text("group", defaultGroup);
    int minAcks = (int) section.number("minAcks", DEFAULT_MIN_ACKS, 0, Integer.MAX_VALUE);
    long ackTimeoutMillis = section.number("ackTimeoutMillis", DEFAULT_ACK_TIMEOUT_MILLIS, 1, MAX_ACK_TIMEOUT_MILLIS);
    Object when = section.value("whenTooFewStandbys");
    WhenTooFewStandbys whenTooFew = when == null ? WhenTooFewStandbys.SERVE : WhenTooFewStandbys.parse(when);
    // REPLICATION.md: each node needs a binlog.dir of its own; the records a standby applies go there.
    // The other requirement, -cluster, is the launcher's to check: config cannot see it.
    if (isEnabled && !hasBinlogDir) {
      throw new IllegalArgumentException(
          "config: 'replication.enabled' is true but 'binlog.dir' is not set; each node of a group needs "
              + "a binlog of its own");
    }
    return new ReplicationConfig(isEnabled, group, minAcks, ackTimeoutMillis, whenTooFew);
  }
}
