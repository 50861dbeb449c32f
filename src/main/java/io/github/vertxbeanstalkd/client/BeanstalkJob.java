package io.github.vertxbeanstalkd.client;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A job as reserve and peek return it: its id, its tube and its bytes.
 *
 * @see <a href="{@docRoot}/../spec/EVENTBUS.html">EVENTBUS.md</a>
 */
public record BeanstalkJob(long id, String tube, Buffer body) {

  /** The body read as UTF-8 text. */
  public String bodyAsString() {
    return body.toString(StandardCharsets.UTF_8);
  }

  /** EVENTBUS.md: {@code body} when the bytes are UTF-8 text, otherwise {@code bodyBase64}. */
  static BeanstalkJob fromJson(JsonObject json) {
    String text = json.getString("body");
    Buffer body = text != null ? Buffer.buffer(text, "UTF-8")
        : Buffer.buffer(Base64.getDecoder().decode(json.getString("bodyBase64", "")));
    return new BeanstalkJob(json.getLong("id"), json.getString("tube"), body);
  }
}
