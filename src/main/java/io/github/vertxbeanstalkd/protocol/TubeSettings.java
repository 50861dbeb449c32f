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
 */
public record TubeSettings(Long maxJobs, Long maxBytes, Long maxReserves, String deadLetterTube) {
  /** The name whose settings are every tube's defaults. */
  public static final String EVERY_TUBE = "*";
  /** Nothing set. */
  public static final TubeSettings NONE = new TubeSettings(null, null, null, null);
  /** The config file's section. */
  public static final String SECTION = "tubes";
  public static final Set<String> KEYS = Set.of("maxJobs", "maxBytes", "maxReserves", "deadLetterTube");
  /** Caps and counts fit the binlog's u32 (counts) and i64 (bytes) fields. */
  public static final long MAX_COUNT = 0xFFFF_FFFFL;
  /** As the protocol's tube names (protocol.txt): 200 bytes at most. */
  static final int MAX_TUBE_NAME_CHARS = 200;

  public boolean isEmpty() {
    return maxJobs == null && maxBytes == null && maxReserves == null && deadLetterTube == null;
  }

  /** These settings, where a key is not set taking it from {@code defaults}. */
  public TubeSettings over(TubeSettings defaults) {
    return new TubeSettings(maxJobs != null ? maxJobs : defaults.maxJobs,
        maxBytes != null ? maxBytes : defaults.maxBytes,
        maxReserves != null ? maxReserves : defaults.maxReserves,
        deadLetterTube != null ? deadLetterTube : defaults.deadLetterTube);
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
