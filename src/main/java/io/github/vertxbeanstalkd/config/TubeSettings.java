package io.github.vertxbeanstalkd.config;

import io.vertx.core.json.JsonObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One tube's settings, each key optional (null: not set here, so the defaults of {@code "*"}
 * apply, and with none there the tube behaves as in beanstalkd 1.12). Immutable; read from the
 * {@code tubes} section of the config file, the admin API and the event bus, all with {@link #fromJson}.
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
  static final Set<String> KEYS = Set.of("maxJobs", "maxBytes", "maxReserves", "deadLetterTube");
  /** Caps and counts fit the binlog's u32 (counts) and i64 (bytes) fields. */
  static final long MAX_COUNT = 0xFFFF_FFFFL;
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

  /**
   * One tube's settings as JSON gives them; {@code where} names them in a message.
   *
   * @throws IllegalArgumentException with a one-line message naming the offending key
   */
  public static TubeSettings fromJson(String where, Object value) {
    if (!(value instanceof JsonObject json)) {
      throw new IllegalArgumentException("'" + where + "' must be an object, got " + ConfigSection.shown(value));
    }
    for (String key : json.fieldNames()) {
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException("unknown key '" + ConfigSection.shown(where + "." + key) + "'");
      }
    }
    String dead = null;
    Object d = json.getValue("deadLetterTube");
    if (d != null) {
      if (!(d instanceof String s) || !isTubeName(s)) {
        throw new IllegalArgumentException("'" + where + ".deadLetterTube' must be a tube name, got "
            + ConfigSection.shown(d));
      }
      dead = s;
    }
    return new TubeSettings(count(json, where, "maxJobs", MAX_COUNT), count(json, where, "maxBytes", Long.MAX_VALUE),
        count(json, where, "maxReserves", MAX_COUNT), dead);
  }

  /**
   * The {@code tubes} section: tube name (or {@code "*"}) to its settings, in the file's order.
   *
   * @throws IllegalArgumentException with a one-line message naming the offending key
   */
  public static Map<String, TubeSettings> tableFromJson(Object section) {
    if (section == null) {
      return Map.of();
    }
    if (!(section instanceof JsonObject json)) {
      throw new IllegalArgumentException("config: '" + SECTION + "' must be an object, got " + ConfigSection.shown(section));
    }
    Map<String, TubeSettings> table = new LinkedHashMap<>();
    for (String name : json.fieldNames()) {
      if (!isTubeOrEveryTube(name)) {
        throw new IllegalArgumentException("config: '" + SECTION + "' names '" + ConfigSection.shown(name)
            + "', which is neither a tube name nor \"*\"");
      }
      try {
        table.put(name, fromJson(SECTION + "." + name, json.getValue(name)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("config: " + e.getMessage());
      }
    }
    return Collections.unmodifiableMap(table);
  }

  /** A tube name as the protocol allows it, or {@code "*"}. */
  public static boolean isTubeOrEveryTube(String name) {
    return EVERY_TUBE.equals(name) || isTubeName(name);
  }

  /** protocol.txt: 1 to 200 of letters, digits and {@code -+/;.$_()}, not starting with {@code -}. */
  static boolean isTubeName(String name) {
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

  private static Long count(JsonObject json, String where, String key, long max) {
    Object v = json.getValue(key);
    if (v == null) {
      return null;
    }
    try {
      return ConfigSection.wholeNumber(where + "." + key, v, 0, max);
    } catch (IllegalArgumentException e) {
      // Said without the "config: " of the file: the admin API and the event bus check with this too.
      throw new IllegalArgumentException(e.getMessage().replaceFirst("^config: ", ""));
    }
  }
}
