package io.github.vertxbeanstalkd.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One more address the protocol is served on, from the {@code listeners} list, besides the short
 * form's {@code host}/{@code port} (and {@code tls.*}): a TCP address ({@code {"host": "::1", "port":
 * 11300}}, the host defaulting to {@code host}) or a unix domain socket ({@code {"path":
 * "/run/beanstalkd.sock"}}), plain or, with {@code "tls": true}, encrypted with the certificate of
 * the {@code tls} section. Every listener serves the same queue as the others.
 *
 * @param path the socket file of a unix domain socket; null for a TCP address
 */
public record ListenerConfig(String host, int port, Path path, boolean isTls) {
  static final String KEY = "listeners";
  private static final Set<String> KEYS = Set.of("host", "port", "path", "tls");

  /** A plain TCP listener. */
  public static ListenerConfig tcp(String host, int port) {
    return new ListenerConfig(host, port, null, false);
  }

  /** A plain unix domain socket. */
  public static ListenerConfig unix(Path path) {
    return new ListenerConfig(null, 0, path, false);
  }

  /** The same address, encrypted with the {@code tls} section's certificate. */
  public ListenerConfig withTls() {
    return new ListenerConfig(host, port, path, true);
  }

  public boolean isUnix() {
    return path != null;
  }

  /** As the start-up log and /readyz name it, with the port bound when the configured one was 0. */
  public String describe(int boundPort) {
    String where = isUnix() ? "unix:" + path : (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + boundPort;
    return isTls ? where + " (TLS)" : where;
  }

  /**
   * The {@code listeners} list, empty when absent.
   *
   * @throws IllegalArgumentException with a one-line message naming the offending entry and key
   */
  static List<ListenerConfig> fromJson(JsonObject json, String defaultHost) {
    Object value = json.getValue(KEY);
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray array)) {
      throw new IllegalArgumentException("config: '" + KEY + "' must be a list, got " + ConfigSection.shown(value));
    }
    List<ListenerConfig> listeners = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      listeners.add(entry(array.getValue(i), KEY + "[" + i + "]", defaultHost));
    }
    return List.copyOf(listeners);
  }

  private static ListenerConfig entry(Object value, String name, String defaultHost) {
    if (!(value instanceof JsonObject o)) {
      throw new IllegalArgumentException("config: '" + name + "' must be an object such as {\"host\": \"::1\", "
          + "\"port\": 11300} or {\"path\": \"/run/beanstalkd.sock\"}, got " + ConfigSection.shown(value));
    }
    for (String key : o.fieldNames()) {
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException("config: unknown key '" + ConfigSection.shown(name + "." + key) + "'");
      }
    }
    Object tls = o.getValue("tls");
    if (tls != null && !(tls instanceof Boolean)) {
      throw new IllegalArgumentException("config: '" + name + ".tls' must be true or false, got "
          + ConfigSection.shown(tls));
    }
    boolean isTls = Boolean.TRUE.equals(tls);
    Object path = o.getValue("path");
    if (path != null) {
      if (o.containsKey("host") || o.containsKey("port")) {
        throw new IllegalArgumentException("config: '" + name + "' has a 'path' and a 'host' or 'port'; a unix "
            + "socket has only a path");
      }
      if (!(path instanceof String text) || text.isBlank()) {
        throw new IllegalArgumentException("config: '" + name + ".path' must be a file name, got "
            + ConfigSection.shown(path));
      }
      return new ListenerConfig(null, 0, Path.of(text), isTls);
    }
    Object port = o.getValue("port");
    if (!(port instanceof Number n) || n.doubleValue() != n.longValue() || n.longValue() < 0 || n.longValue() > 65_535) {
      throw new IllegalArgumentException("config: '" + name + ".port' must be a port from 0 to 65535"
          + (port == null ? " (or give a 'path' for a unix socket)" : ", got " + ConfigSection.shown(port)));
    }
    Object host = o.getValue("host", defaultHost);
    if (!(host instanceof String h) || h.isBlank()) {
      throw new IllegalArgumentException("config: '" + name + ".host' must be an address, got "
          + ConfigSection.shown(host));
    }
    return new ListenerConfig(bare(h), n.intValue(), null, isTls);
  }

  /** "[::1]" as in a URL, or "::1": Vert.x binds the bare address. */
  static String bare(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }
}
