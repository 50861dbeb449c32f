package io.github.vertxbeanstalkd.config;

import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.vertx.core.json.JsonObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads {@link TubeSettings} from JSON, with the config file's checks and messages: the file's
 * {@code tubes} section, and one tube's settings as the admin API and the event bus receive them.
 */
public final class TubeSettingsJson {
  private TubeSettingsJson() {}

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
      if (!TubeSettings.KEYS.contains(key)) {
        throw new IllegalArgumentException("unknown key '" + ConfigSection.shown(where + "." + key) + "'");
      }
    }
    String dead = null;
    Object d = json.getValue("deadLetterTube");
    if (d != null) {
      if (!(d instanceof String s) || !TubeSettings.isTubeName(s)) {
        throw new IllegalArgumentException("'" + where + ".deadLetterTube' must be a tube name, got "
            + ConfigSection.shown(d));
      }
      dead = s;
    }
    String expire = null;
    Object e = json.getValue("expire");
    if (e != null) {
      if (!TubeSettings.BURY.equals(e) && !TubeSettings.DELETE.equals(e)) {
        throw new IllegalArgumentException("'" + where + ".expire' must be \"bury\" or \"delete\", got "
            + ConfigSection.shown(e));
      }
      expire = (String) e;
    }
    return new TubeSettings(count(json, where, "maxJobs", TubeSettings.MAX_COUNT), count(json, where, "maxBytes", Long.MAX_VALUE),
        count(json, where, "maxReserves", TubeSettings.MAX_COUNT), dead,
        count(json, where, "maxAge", TubeSettings.MAX_COUNT), expire);
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
      throw new IllegalArgumentException("config: '" + TubeSettings.SECTION + "' must be an object, got " + ConfigSection.shown(section));
    }
    Map<String, TubeSettings> table = new LinkedHashMap<>();
    for (String name : json.fieldNames()) {
      if (!TubeSettings.isTubeOrEveryTube(name)) {
        throw new IllegalArgumentException("config: '" + TubeSettings.SECTION + "' names '" + ConfigSection.shown(name)
            + "', which is neither a tube name nor \"*\"");
      }
      try {
        table.put(name, fromJson(TubeSettings.SECTION + "." + name, json.getValue(name)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("config: " + e.getMessage());
      }
    }
    return Collections.unmodifiableMap(table);
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
