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
    assertEquals(new ServerConfig("127.0.0.1", 11300, 65_535), ServerConfig.fromJson(new JsonObject()));
  }

  @Test
  void fileValuesAreRead() {
    JsonObject json = new JsonObject().put("host", "0.0.0.0").put("port", 11400).put("maxJobSize", 1024);
    assertEquals(new ServerConfig("0.0.0.0", 11400, 1024), ServerConfig.fromJson(json));
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
