package io.github.vertxbeanstalkd.config;

import io.github.vertxbeanstalkd.protocol.TubeSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code tubes} section: tube names or "*", each with its known keys, every bad value named. */
class TubeSettingsConfigTest {

  private static String refusal(String json) {
    return assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromJson(new JsonObject(json)))
        .getMessage();
  }

  @Test
  void theSectionIsReadTubeByTube() {
    ServerConfig config = ServerConfig.fromJson(new JsonObject(
        "{\"tubes\": {\"*\": {\"maxReserves\": 5}, \"emails\": {\"maxJobs\": 10, \"maxBytes\": \"2048\","
            + " \"deadLetterTube\": \"emails-dead\"}}}"));
    assertEquals(Map.of("*", new TubeSettings(null, null, 5L, null),
        "emails", new TubeSettings(10L, 2048L, null, "emails-dead")), config.tubes());
  }

  @Test
  void withoutTheSectionNoTubeHasSettings() {
    assertEquals(Map.of(), ServerConfig.fromJson(new JsonObject()).tubes());
  }

  @Test
  void everyBadValueStopsStartUpNamingIt() {
    assertEquals("config: 'tubes' must be an object, got [1]", refusal("{\"tubes\": [1]}"));
    assertEquals("config: 'tubes' names 'a b', which is neither a tube name nor \"*\"",
        refusal("{\"tubes\": {\"a b\": {}}}"));
    assertEquals("config: unknown key 'tubes.emails.maxjobs'", refusal("{\"tubes\": {\"emails\": {\"maxjobs\": 1}}}"));
    assertEquals("config: 'tubes.emails.maxJobs' must be between 0 and 4294967295, got -1",
        refusal("{\"tubes\": {\"emails\": {\"maxJobs\": -1}}}"));
    assertEquals("config: 'tubes.emails.deadLetterTube' must be a tube name, got -x",
        refusal("{\"tubes\": {\"emails\": {\"deadLetterTube\": \"-x\"}}}"));
    assertEquals("config: 'tubes.emails' must be an object, got 3", refusal("{\"tubes\": {\"emails\": 3}}"));
  }

  @Test
  void aTubesOwnKeysWinOverTheDefaults() {
    TubeSettings every = new TubeSettings(1L, 2L, 3L, "dead");
    assertEquals(new TubeSettings(0L, 2L, 3L, "mine"), new TubeSettings(0L, null, null, "mine").over(every));
  }
}
