package io.github.vertxbeanstalkd.config;

import io.vertx.core.json.JsonObject;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Reads one section of the configuration, such as {@code eventBus}, from flat keys
 * ({@code "eventBus.address": "jobs"}) or a nested object ({@code "eventBus": {"address": "jobs"}}).
 * A section's name may itself be dotted ({@code cluster.tls}): then its keys nest one level per part
 * ({@code "cluster": {"tls": {"cert": ...}}}) or stay flat ({@code "cluster.tls.cert"}).
 * An environment variable wins over a flat key, and a flat key over the nested one.
 */
final class ConfigSection {
  private final String name;
  private final JsonObject json;
  private final JsonObject nested;
  private final Map<String, String> environment;

  /**
   * @param keys the section's keys without the prefix
   * @param environment environment variable to full key ({@code "eventBus.address"})
   * @throws IllegalArgumentException when the section is not an object or has an unknown key
   */
  ConfigSection(String name, Set<String> keys, Map<String, String> environment, JsonObject json) {
    this.name = name;
    this.json = json;
    this.environment = environment;
    String[] parts = name.split("\\.");
    JsonObject level = json;
    String path = null;
    for (int i = 0; i < parts.length && level != null; i++) {
      path = path == null ? parts[i] : path + "." + parts[i];
      Object section = level.getValue(parts[i]);
      if (section == null) {
        level = null;
      } else if (section instanceof JsonObject o) {
        // An object on the way to the section holds nothing but the next part of its name.
        Set<String> allowed = i == parts.length - 1 ? keys : Set.of(parts[i + 1]);
        for (String key : o.fieldNames()) {
          if (!allowed.contains(key)) {
            throw new IllegalArgumentException("config: unknown key '" + shown(path + "." + key) + "'");
          }
        }
        level = o;
      } else {
        throw new IllegalArgumentException("config: '" + path + "' must be an object, got " + shown(section));
      }
    }
    nested = level == null ? new JsonObject() : level;
  }

  /**
   * Every key a section may appear under at the top of the file: the first part of its name (the
   * nested form) and each {@code name.key}.
   */
  static Set<String> topLevelKeys(String name, Set<String> keys) {
    Set<String> all = new java.util.HashSet<>();
    all.add(name.split("\\.")[0]);
    keys.forEach(k -> all.add(name + "." + k));
    return all;
  }

  /**
   * A value or key from the file or the environment as it may appear in an error: its text, with line
   * breaks and other control characters escaped, so the message stays the one line README.md promises
   * (and a value cannot forge lines of the log).
   */
  static String shown(Object v) {
    String text = String.valueOf(v);
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean isControl = c < 0x20 || c == 0x7f || c == 0x85 || c == 0x2028 || c == 0x2029;
      if (isControl && out == null) {
        out = new StringBuilder(text.length() + 8).append(text, 0, i);
      }
      if (out != null) {
        if (c == '\n') {
          out.append("\\n");
        } else if (c == '\r') {
          out.append("\\r");
        } else if (c == '\t') {
          out.append("\\t");
        } else if (isControl) {
          out.append(String.format("\\u%04x", (int) c));
        } else {
          out.append(c);
        }
      }
    }
    return out == null ? text : out.toString();
  }

  Object value(String key) {
    String full = name + "." + key;
    for (Map.Entry<String, String> e : environment.entrySet()) {
      if (e.getValue().equals(full) && json.getValue(e.getKey()) != null) {
        return json.getValue(e.getKey());
      }
    }
    Object flat = json.getValue(full);
    return flat != null ? flat : nested.getValue(key);
  }

  boolean flag(String key, boolean fallback) {
    Object v = value(key);
    if (v == null) {
      return fallback;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof String s && (s.strip().equals("true") || s.strip().equals("false"))) {
      return Boolean.parseBoolean(s.strip());
    }
    throw new IllegalArgumentException("config: '" + name + "." + key + "' must be true or false, got " + shown(v));
  }

  long number(String key, long fallback, long min, long max) {
    Object v = value(key);
    return v == null ? fallback : wholeNumber(name + "." + key, v, min, max);
  }

  /** {@code v} as a whole number from {@code min} to {@code max}: a JSON number, or digits in a string. */
  static long wholeNumber(String fullKey, Object v, long min, long max) {
    long n;
    if (v instanceof Number num && num.doubleValue() == num.longValue()) {
      n = num.longValue();
    } else if (v instanceof String s && s.strip().matches("\\d{1,18}")) {
      n = Long.parseLong(s.strip());
    } else {
      throw new IllegalArgumentException("config: '" + fullKey + "' must be a whole number, got " + shown(v));
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException(
          "config: '" + fullKey + "' must be between " + min + " and " + max + ", got " + n);
    }
    return n;
  }


  /** A file's path; relative paths stay relative (to the working directory). */
  Path path(String key) {
    String text = text(key, null);
    if (text == null) {
      return null;
    }
    try {
      return Path.of(text);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("config: '" + name + "." + key + "' is not a valid path: " + shown(text));
    }
  }

  String text(String key, String fallback) {
    Object v = value(key);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof String s) || s.isBlank()) {
      throw new IllegalArgumentException("config: '" + name + "." + key + "' must be a non-empty string, got " + shown(v));
    }
    return s.strip();
  }
}
