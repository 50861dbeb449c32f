package io.github.vertxbeanstalkd.config;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;

/**
 * The HTTP listener: /metrics, /healthz, /readyz and the admin page with its JSON API. It binds to
 * the TCP listener's host unless told otherwise; with a {@code token}, every admin API call must
 * carry {@code Authorization: Bearer <token>}.
 */
public record HttpConfig(boolean isEnabled, String host, int port, String token) {
  public static final int DEFAULT_PORT = 11380;
  static final String SECTION = "http";
  static final Set<String> KEYS = Set.of("enabled", "host", "port", "token");
  static final Map<String, String> ENVIRONMENT = Map.of(
      "BEANSTALKD_HTTP_ENABLED", "http.enabled",
      "BEANSTALKD_HTTP_HOST", "http.host",
      "BEANSTALKD_HTTP_PORT", "http.port",
      "BEANSTALKD_HTTP_TOKEN", "http.token");

  /** No HTTP listener: what embedding and tests get unless they ask for one. */
  public static HttpConfig off() {
    return new HttpConfig(false, ServerConfig.DEFAULT_HOST, DEFAULT_PORT, null);
  }

  /** A listener on {@code host}, an ephemeral port, no token. */
  public static HttpConfig onFreePort(String host) {
    return new HttpConfig(true, host, 0, null);
  }

  public HttpConfig withToken(String token) {
    return new HttpConfig(isEnabled, host, port, token);
  }

  public boolean hasToken() {
    return token != null;
  }

  static HttpConfig fromJson(JsonObject json, String defaultHost) {
    ConfigSection section = new ConfigSection(SECTION, KEYS, ENVIRONMENT, json);
    return new HttpConfig(section.flag("enabled", true), section.text("host", defaultHost),
        (int) section.number("port", DEFAULT_PORT, 0, 65_535), section.text("token", null));
  }
}
