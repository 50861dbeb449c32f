package io.github.vertxbeanstalkd.config;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * The optional TLS listener: the same protocol and the same queue as the TCP port, encrypted. Off
 * unless a port is set; it binds to the TCP listener's host unless told otherwise. The certificate
 * chain and the key are PEM files; with a client CA, every client must present a certificate it signed.
 */
public record TlsConfig(boolean isEnabled, String host, int port, Path cert, Path key, Path clientCa) {
  static final String SECTION = "tls";
  static final Set<String> KEYS = Set.of("host", "port", "cert", "key", "clientCa");
  static final Map<String, String> ENVIRONMENT = Map.of(
      "BEANSTALKD_TLS_HOST", "tls.host",
      "BEANSTALKD_TLS_PORT", "tls.port",
      "BEANSTALKD_TLS_CERT", "tls.cert",
      "BEANSTALKD_TLS_KEY", "tls.key",
      "BEANSTALKD_TLS_CLIENT_CA", "tls.clientCa");

  public TlsConfig {
    if (isEnabled && (cert == null || key == null)) {
      throw new IllegalArgumentException("config: 'tls." + (cert == null ? "cert" : "key")
          + "' must be set when 'tls.port' is");
    }
  }

  /** No TLS listener: the default. */
  public static TlsConfig off() {
    return new TlsConfig(false, ServerConfig.DEFAULT_HOST, 0, null, null, null);
  }

  /** A listener on {@code host} and an ephemeral port, with this certificate chain and key, no client certificates. */
  public static TlsConfig onFreePort(String host, Path cert, Path key) {
    return new TlsConfig(true, host, 0, cert, key, null);
  }

  /** Requires every client to present a certificate signed by one of the CAs in {@code caFile}. */
  public TlsConfig withClientCa(Path caFile) {
    return new TlsConfig(isEnabled, host, port, cert, key, caFile);
  }

  /** True when a certificate and its key are named: TLS listeners of {@code listeners} can serve it. */
  public boolean hasCertificate() {
    return cert != null && key != null;
  }

  public boolean isClientCertificateRequired() {
    return clientCa != null;
  }

  /**
   * @param hasTlsListeners whether a listener of {@code listeners} is encrypted: then {@code cert}
   *     and {@code key} are needed, and may come without {@code port}
   */
  static TlsConfig fromJson(JsonObject json, String defaultHost, boolean hasTlsListeners) {
    ConfigSection section = new ConfigSection(SECTION, KEYS, ENVIRONMENT, json);
    String host = section.text("host", defaultHost);
    Path cert = section.path("cert");
    Path key = section.path("key");
    Path clientCa = section.path("clientCa");
    if (hasTlsListeners && (cert == null || key == null)) {
      throw new IllegalArgumentException("config: a listener of 'listeners' has \"tls\": true; set 'tls.cert' and "
          + "'tls.key' to the certificate chain and key it serves");
    }
    if (section.value("port") == null && hasTlsListeners) {
      // The certificate is for the listeners of 'listeners' alone: no TLS listener of the short form.
      if (section.value("host") != null) {
        throw new IllegalArgumentException("config: 'tls.host' is set but 'tls.port' is not; "
            + "set 'tls.port' to turn the short form's TLS listener on (0 picks a free port)");
      }
      return new TlsConfig(false, host, 0, cert, key, clientCa);
    }
    if (section.value("port") == null) {
      // A certificate given without a port is a listener the operator expects and would not get.
      for (String k : new String[] {"host", "cert", "key", "clientCa"}) {
        if (section.value(k) != null) {
          throw new IllegalArgumentException("config: 'tls." + k + "' is set but 'tls.port' is not; "
              + "set 'tls.port' to turn TLS on (0 picks a free port)");
        }
      }
      return off();
    }
    int port = (int) section.number("port", 0, 0, 65_535);
    return new TlsConfig(true, host, port, cert, key, clientCa);
  }
}
