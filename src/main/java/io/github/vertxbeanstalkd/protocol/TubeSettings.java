package io.github.vertxbeanstalkd.protocol;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * One tube's settings, each key optional (null: not set here, so the defaults of {@code "*"}
 * apply, and with none there the tube behaves as in beanstalkd 1.12). Immutable; read from the
 * {@code tubes} section of the config file, the admin API and the event bus, all with
 * {@code config.TubeSettingsJson}.
 *
 * @param maxJobs at most this many jobs in the tube (any state); a put past it answers OUT_OF_MEMORY; 0: no cap
 * @param maxBytes at most this many body bytes in the tube; a put past it answers OUT_OF_MEMORY; 0: no cap
 * @param maxReserves a job that comes back from a TTR timeout or a release with this many reserves
 *     (since it was put or last kicked) is buried instead of made ready; 0: never
 * @param deadLetterTube where such a job goes, buried; null: it stays buried in its own tube
 * @param maxAge seconds: a ready or delayed job older than this (since its put) is expired; 0: never
 * @param expire what expiring does: {@link #BURY} (also when not set) or {@link #DELETE}
 */
public record TubeSettings(Long maxJobs, Long maxBytes, Long maxReserves, String deadLetterTube, Long maxAge,
    String expire) {
  /** The name whose settings are every tube's defaults. */
  public static final String EVERY_TUBE = "*";
  /** Nothing set. */
  public static final TubeSettings NONE = new TubeSettings(null, null, null, null);
  /** {@code expire}: an old job is buried in its tube. */
  public static final String BURY = "bury";
  /** {@code expire}: an old job is deleted. */
  public static final String DELETE = "delete";
  /** The config file's section. */
  public static final String SECTION = "tubes";
  public static final Set<String> KEYS = Set.of("maxJobs", "maxBytes", "maxReserves", "deadLetterTube", "maxAge",
      "expire");
  /** Caps and counts fit the binlog's u32 (counts) and i64 (bytes) fields. */
  public static final long MAX_COUNT = 0xFFFF_FFFFL;
  /** As the protocol's tube names (protocol.txt): 200 bytes at most. */
  static final int MAX_TUBE_NAME_CHARS = 200;

  public TubeSettings {
    if (expire != null && !expire.equals(BURY) && !expire.equals(DELETE)) {
      throw new IllegalArgumentException("expire is \"bury\" or \"delete\", not " + expire);
    }
  }

  /** Settings without expiry. */
  public TubeSettings(Long maxJobs, Long maxBytes, Long maxReserves, String deadLetterTube) {
    this(maxJobs, maxBytes, maxReserves, deadLetterTube, null, null);
  }

  public boolean isEmpty() {
    return maxJobs == null && maxBytes == null && maxReserves == null && deadLetterTube == null && maxAge == null
        && expire == null;
  }

  /** Whether {@code maxAge} or {@code expire} is set (a log record of its own carries them). */
  public boolean hasExpiry() {
    return maxAge != null || expire != null;
  }

  /** These settings, where a key is not set taking it from {@code defaults}. */
  public TubeSettings over(TubeSettings defaults) {
    return new TubeSettings(maxJobs != null ? maxJobs : defaults.maxJobs,
        maxBytes != null ? maxBytes : defaults.maxBytes,
        maxReserves != null ? maxReserves : defaults.maxReserves,
        deadLetterTube != null ? deadLetterTube : defaults.deadLetterTube,
        maxAge != null ? maxAge : defaults.maxAge,
        expire != null ? expire : defaults.expire);
  }

  /** {@code maxAge} in seconds, 0 when not set. */
  public long ageLimitSeconds() {
    return maxAge == null ? 0 : maxAge;
  }

  /** Whether an old job is deleted rather than buried. */
  public boolean isExpiryDelete() {
    return DELETE.equals(expire);
  }

  /** {@code maxJobs}, 0 when not set. */
  public long jobCap() {
    return maxJobs == null ? 0 : maxJobs;
  }

  /** {@code maxBytes}, 0 when not set. */
  public long byteCap() {
    return maxBytes == null ? 0 : maxBytes;
  }

  /** {@code maxReserves}, 0 when not set. */
  public long reserveLimit() {
    return maxReserves == null ? 0 : maxReserves;
  }

  /** The keys that are set, and only those. */
  public JsonObject toJson() {
    JsonObject json = new JsonObject();
    if (maxJobs != null) {
      json.put("maxJobs", maxJobs);
    }
    if (maxBytes != null) {
      json.put("maxBytes", maxBytes);
    }
    if (maxReserves != null) {
      json.put("maxReserves", maxReserves);
    }
    if (deadLetterTube != null) {
      json.put("deadLetterTube", deadLetterTube);
    }
    if (maxAge != null) {
      json.put("maxAge", maxAge);
    }
    if (expire != null) {
      json.put("expire", expire);
    }
    return json;
  }

  /** A tube name as the protocol allows it, or {@code "*"}. */
  public static boolean isTubeOrEveryTube(String name) {
    return EVERY_TUBE.equals(name) || isTubeName(name);
  }

  /** protocol.txt: 1 to 200 of letters, digits and {@code -+/;.$_()}, not starting with {@code -}. */
  public static boolean isTubeName(String name) {
    int n = name.length();
    if (n == 0 || n > MAX_TUBE_NAME_CHARS || name.charAt(0) == '-') {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = name.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || "-+/;.$_()".indexOf(c) >= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
