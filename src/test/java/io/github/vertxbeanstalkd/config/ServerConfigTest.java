package io.github.vertxbeanstalkd.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ServerConfigTest {

  @Test
  void emptyJsonGivesTheDefaults() {
    assertEquals(ServerConfig.defaults(), ServerConfig.fromJson(new JsonObject()));
    assertEquals(new ServerConfig("127.0.0.1", 11300, 65_535).withHttp(new HttpConfig(true, "127.0.0.1", 11380, null)),
        ServerConfig.fromJson(new JsonObject()));
  }

  /** Found by ConfigFuzzTest: a value with a line break was echoed raw, so the "one line" error spanned two. */
  @Test
  void anInvalidValueOrKeyWithALineBreakIsShownEscapedOnOneLine() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.fromJson(new JsonObject().put("replication.whenTooFewStandbys", "x\nERROR forged")));
    assertEquals("config: 'replication.whenTooFewStandbys' must be \"serve\" or \"refuse\", got x\\nERROR forged",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.fromJson(new JsonObject().put("port\r\n", 1)));
    assertEquals("config: unknown key 'port\\r\\n'", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.fromJson(new JsonObject().put("binlog", new JsonObject().put("fsync", "\u2028"))));
    assertEquals("config: 'binlog.fsync' must be \"always\", \"never\" or milliseconds, got \\u2028", e.getMessage());
  }

  @Test
  void fileValuesAreRead() {
    JsonObject json = new JsonObject().put("host", "0.0.0.0").put("port", 11400).put("maxJobSize", 1024);
    // The HTTP listener follows host unless told otherwise.
    assertEquals(new ServerConfig("0.0.0.0", 11400, 1024).withHttp(new HttpConfig(true, "0.0.0.0", 11380, null)),
        ServerConfig.fromJson(json));
  }

  @Test
  void theLauncherReadsMetricsEnabledBeforeVertxStarts() {
    java.util.Map<String, String> noEnv = java.util.Map.of();
    assertEquals(true, ServerConfig.isMetricsEnabled(null, noEnv));
    assertEquals(false, ServerConfig.isMetricsEnabled(new JsonObject().put("metrics.enabled", false), noEnv));
    assertEquals(false, ServerConfig.isMetricsEnabled(
        new JsonObject().put("metrics", new JsonObject().put("enabled", false)), noEnv));
    assertEquals(false, ServerConfig.isMetricsEnabled(new JsonObject(),
        java.util.Map.of("BEANSTALKD_METRICS_ENABLED", "false")));
    assertEquals(true, ServerConfig.isMetricsEnabled(new JsonObject().put("metrics.enabled", false),
        java.util.Map.of("BEANSTALKD_METRICS_ENABLED", "true")));
    // Invalid: on here; fromJson refuses it afterwards, naming the key.
    assertEquals(true, ServerConfig.isMetricsEnabled(new JsonObject().put("metrics.enabled", "maybe"), noEnv));
  }

  @Test
  void httpMetricsAndShutdownKeysFlatNestedAndFromTheEnvironment() {
    ServerConfig nested = ServerConfig.fromJson(new JsonObject()
        .put("http", new JsonObject().put("port", 0).put("host", "::1").put("token", "t"))
        .put("metrics", new JsonObject().put("enabled", false)).put("shutdownGraceMillis", 2500));
    assertEquals(new HttpConfig(true, "::1", 0, "t"), nested.http());
    assertEquals(false, nested.isMetricsEnabled());
    assertEquals(2500, nested.shutdownGraceMillis());
    ServerConfig flat = ServerConfig.fromJson(new JsonObject().put("http.enabled", false).put("http.port", 9000)
        .put("BEANSTALKD_HTTP_PORT", "9100").put("BEANSTALKD_METRICS_ENABLED", "false"));
    assertEquals(new HttpConfig(false, "127.0.0.1", 9100, null), flat.http());
    assertEquals(false, flat.isMetricsEnabled());
    var e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.fromJson(new JsonObject().put("http", new JsonObject().put("port", 70000))));
    assertEquals("config: 'http.port' must be between 0 and 65535, got 70000", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.fromJson(new JsonObject().put("http", new JsonObject().put("tokens", "x"))));
    assertEquals("config: unknown key 'http.tokens'", e.getMessage());
  }

  @Test
  void environmentOverridesTheFile() {
    JsonObject json = new JsonObject().put("port", 11400).put("BEANSTALKD_PORT", "11500")
        .put("maxJobSize", 10).put("BEANSTALKD_MAX_JOB_SIZE", "2048");
    ServerConfig config = ServerConfig.fromJson(json);
    assertEquals(11500, config.port());
    assertEquals(2048, config.maxJobSizeBytes());
  }

  @Test
  void theRetiredWarmUpKeyIsRefusedNamingIt() {
    // The closed-port rehearsal is gone (the start cache does its work): a config that asks for it
    // fails at start with one line, instead of starting without what it asked for.
    var e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.fromJson(new JsonObject().put("tcp", new JsonObject().put("warmUp", true))));
    assertEquals("config: unknown key 'tcp.warmUp'", e.getMessage());
  }

  @Test
  void maxJobSizeAboveOneGibibyteIsRejectedNamingTheKey() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.fromJson(new JsonObject().put("maxJobSize", (1L << 30) + 1)));
    assertEquals("config: 'maxJobSize' must be between 0 and 1073741824, got 1073741825", e.getMessage());
  }

  @Test
  void invalidValuesAreRejectedNamingTheKey() {
    assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromJson(new JsonObject().put("port", 70000)));
    assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromJson(new JsonObject().put("port", "x")));
    assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromJson(new JsonObject().put("host", 5)));
    var e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.fromJson(new JsonObject().put("prot", 1)));
    assertEquals("config: unknown key 'prot'", e.getMessage());
  }

  @Test
  void tlsIsOffUnlessAPortIsSet() {
    assertEquals(TlsConfig.off(), ServerConfig.fromJson(new JsonObject()).tls());
    assertEquals(false, ServerConfig.defaults().tls().isEnabled());
  }

  @Test
  void tlsKeysFlatNestedAndFromTheEnvironment() {
    ServerConfig nested = ServerConfig.fromJson(new JsonObject().put("host", "0.0.0.0")
        .put("tls", new JsonObject().put("port", 11301).put("cert", "/etc/bs/cert.pem").put("key", "/etc/bs/key.pem")));
    // tls.host follows host unless told otherwise.
    assertEquals(new TlsConfig(true, "0.0.0.0", 11301, Path.of("/etc/bs/cert.pem"), Path.of("/etc/bs/key.pem"), null),
        nested.tls());
    assertEquals(false, nested.tls().isClientCertificateRequired());
    ServerConfig flat = ServerConfig.fromJson(new JsonObject().put("tls.port", 0).put("tls.cert", "c.pem")
        .put("tls.key", "k.pem").put("tls.clientCa", "ca.pem").put("tls.host", "::1"));
    assertEquals(new TlsConfig(true, "::1", 0, Path.of("c.pem"), Path.of("k.pem"), Path.of("ca.pem")), flat.tls());
    assertEquals(true, flat.tls().isClientCertificateRequired());
    ServerConfig env = ServerConfig.fromJson(new JsonObject().put("tls", new JsonObject().put("port", 1))
        .put("BEANSTALKD_TLS_PORT", "11302").put("BEANSTALKD_TLS_CERT", "/e/c.pem").put("BEANSTALKD_TLS_KEY", "/e/k.pem")
        .put("BEANSTALKD_TLS_CLIENT_CA", "/e/ca.pem").put("BEANSTALKD_TLS_HOST", "10.0.0.1"));
    assertEquals(new TlsConfig(true, "10.0.0.1", 11302, Path.of("/e/c.pem"), Path.of("/e/k.pem"), Path.of("/e/ca.pem")),
        env.tls());
    assertEquals(true, ServerConfig.environmentVariables().containsAll(java.util.Set.of("BEANSTALKD_TLS_HOST",
        "BEANSTALKD_TLS_PORT", "BEANSTALKD_TLS_CERT", "BEANSTALKD_TLS_KEY", "BEANSTALKD_TLS_CLIENT_CA")));
  }

  @Test
  void withTlsKeepsTheRestOfTheConfig() {
    TlsConfig tls = TlsConfig.onFreePort("127.0.0.1", Path.of("c.pem"), Path.of("k.pem")).withClientCa(Path.of("ca.pem"));
    ServerConfig config = ServerConfig.forTests().withMaxConnections(7).withTls(tls);
    assertEquals(tls, config.tls());
    assertEquals(7, config.maxConnections());
    assertEquals(false, config.withoutTcp().isTcpEnabled());
    assertEquals(tls, config.withoutTcp().tls());
  }

  @Test
  void badTlsValuesAreRejectedNamingTheKey() {
    assertEquals("config: 'tls.cert' must be set when 'tls.port' is",
        rejected(new JsonObject().put("tls.port", 11301).put("tls.key", "k.pem")));
    assertEquals("config: 'tls.key' must be set when 'tls.port' is",
        rejected(new JsonObject().put("tls.port", 11301).put("tls.cert", "c.pem")));
    assertEquals("config: 'tls.port' must be between 0 and 65535, got 70000",
        rejected(new JsonObject().put("tls", new JsonObject().put("port", 70000).put("cert", "c").put("key", "k"))));
    assertEquals("config: 'tls.port' must be a whole number, got x",
        rejected(new JsonObject().put("BEANSTALKD_TLS_PORT", "x").put("tls.cert", "c").put("tls.key", "k")));
    assertEquals("config: 'tls.cert' must be a non-empty string, got 5",
        rejected(new JsonObject().put("tls.port", 0).put("tls.cert", 5).put("tls.key", "k")));
    assertEquals("config: unknown key 'tls.certificate'",
        rejected(new JsonObject().put("tls", new JsonObject().put("certificate", "c"))));
    assertEquals("config: unknown key 'tls.ca'", rejected(new JsonObject().put("tls.ca", "c")));
    assertEquals("config: 'tls' must be an object, got on", rejected(new JsonObject().put("tls", "on")));
    assertEquals("config: 'tls.clientCa' is not a valid path: a\\u0000b",
        rejected(new JsonObject().put("tls.port", 0).put("tls.cert", "c").put("tls.key", "k")
            .put("tls.clientCa", "a\u0000b")));
  }

  @Test
  void aTlsCertificateWithoutAPortIsRejectedRatherThanIgnored() {
    assertEquals("config: 'tls.cert' is set but 'tls.port' is not; set 'tls.port' to turn TLS on (0 picks a free port)",
        rejected(new JsonObject().put("tls", new JsonObject().put("cert", "c.pem").put("key", "k.pem"))));
    assertEquals("config: 'tls.clientCa' is set but 'tls.port' is not; set 'tls.port' to turn TLS on (0 picks a free port)",
        rejected(new JsonObject().put("BEANSTALKD_TLS_CLIENT_CA", "ca.pem")));
  }

  private static String rejected(JsonObject json) {
    return assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromJson(json)).getMessage();
  }
}
