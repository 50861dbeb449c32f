package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.EncodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.DatabindCodec;
import io.vertx.core.json.jackson.JacksonCodec;
import io.vertx.core.spi.json.JsonCodec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerJsonTest {
  record Point(int x, int y) {}

  @Test
  void theServerReadsAndWritesJsonWithTheStreamingCodec() {
    JsonCodec codec = ServerJson.codecFor(true);
    assertInstanceOf(JacksonCodec.class, codec);
    assertFalse(codec instanceof DatabindCodec, "the databind codec builds its object mapper at the first JSON read");
    // What the server reads and writes: maps, lists and plain values, as the databind codec gives them.
    String config = "{\"port\":11300,\"maxMemory\":1449551462,\"ratio\":0.9,\"tubes\":{\"*\":{\"maxJobs\":10}},"
        + "\"listen\":[\"[::1]:11300\",\"unix:/run/b.sock\"],\"binlog\":null,\"tls\":false}";
    @SuppressWarnings("unchecked")
    Map<String, Object> read = codec.fromString(config, Map.class);
    @SuppressWarnings("unchecked")
    Map<String, Object> expected = DatabindCodec.mapper().convertValue(new JsonObject(config).getMap(), Map.class);
    assertEquals(expected.toString(), read.toString());
    assertEquals(new JsonObject(config), new JsonObject(codec.toString(new JsonObject(config), false)));
    assertEquals(List.of(1, "a"), List.copyOf((List<?>) codec.fromString("[1,\"a\"]", List.class)));
    // What it does not do: map objects of its own classes (an app's mapFrom needs databind).
    assertThrows(EncodeException.class, () -> codec.toString(new Point(1, 2), false));
  }

  @Test
  void anyOtherProcessKeepsVertxsOwnChoice() {
    assertSame(io.vertx.core.json.jackson.JacksonFactory.CODEC, ServerJson.codecFor(false));
    // This test JVM is not the launcher's: an embedding app's mapFrom keeps working.
    assertInstanceOf(DatabindCodec.class, Json.CODEC);
    assertEquals(new JsonObject().put("x", 1).put("y", 2), JsonObject.mapFrom(new Point(1, 2)));
  }
}
