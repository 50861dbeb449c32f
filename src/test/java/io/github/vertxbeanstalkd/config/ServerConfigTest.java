package io.github.vertxbeanstalkd.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class ServerConfigTest {

  @Test
  void emptyJsonGivesTheDefaults() {
    assertEquals(ServerConfig.defaults(), ServerConfig.fromJson(new JsonObject()));
    assertEquals(new ServerConfig("127.0.0.1", 11300, 65_535).withHttp(new HttpConfig(true, "127.0.0.1", 11380, null)),
        ServerConfig.fromJson(new JsonObject()));
  }

  @Test
  void fileValuesAreRead() {
    JsonObject json = new JsonObject().put("host", "0.0.0.0").put("port", 11400).put("maxJobSize", 1024);
    // The HTTP listener follows host unless told otherwise.
    assertEquals(new ServerConfig("0.0.0.0", 11400, 1024).withHttp(new HttpConfig(true, "0.0.0.0", 11380, null)),
        ServerConfig.fromJson(json));
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
  void theWarmUpIsOnUnlessTurnedOff() {
    assertTrue(ServerConfig.fromJson(new JsonObject()).isWarmUpEnabled());
    assertFalse(ServerConfig.fromJson(new JsonObject().put("tcp", new JsonObject().put("warmUp", false)))
        .isWarmUpEnabled());
    assertFalse(ServerConfig.fromJson(new JsonObject().put("tcp.warmUp", "false")).isWarmUpEnabled());
    assertFalse(ServerConfig.fromJson(new JsonObject().put("tcp.warmUp", true).put("BEANSTALKD_TCP_WARM_UP", "false"))
        .isWarmUpEnabled());
    assertFalse(ServerConfig.forTests().isWarmUpEnabled());
    var e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.fromJson(new JsonObject().put("tcp.warmUp", "yes")));
    assertEquals("config: 'tcp.warmUp' must be true or false, got yes", e.getMessage());
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
}
