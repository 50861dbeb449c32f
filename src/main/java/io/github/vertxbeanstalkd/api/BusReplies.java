package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.contract.Action;
import io.github.vertxbeanstalkd.contract.Failure;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Turns the engine's protocol replies into EVENTBUS.md's JSON replies and failure words.
 *
 * @see <a href="{@docRoot}/../spec/EVENTBUS.html">EVENTBUS.md</a>
 */
final class BusReplies {
  private BusReplies() {}

  /** The JSON reply to {@code action}, or the failure it stands for. */
  static JsonObject toJson(String action, Reply reply) throws RequestRefused {
    if (reply instanceof Reply.Number n) {
      return switch (n.word()) {
        case "KICKED" -> new JsonObject().put("kicked", n.value());
        case "FLUSHED" -> new JsonObject().put("flushed", n.value());
        default -> new JsonObject().put("id", n.value());
      };
    }
    if (reply instanceof Reply.JobBody job) {
      return job(job);
    }
    if (reply instanceof Reply.Stats stats) {
      return stats.document().toJson();
    }
    if (reply instanceof Reply.TubeNames names) {
      return new JsonObject().put("tubes", new JsonArray(names.names()));
    }
    if (reply instanceof Reply.Word word) {
      switch (word) {
        case DELETED, RELEASED, TOUCHED, KICKED, PAUSED:
          return new JsonObject();
        case BURIED:
          // EVENTBUS.md: a release the server had to bury says so.
          return Action.RELEASE.word().equals(action) ? new JsonObject().put("buried", true) : new JsonObject();
        default:
          Failure f = Failure.of(word.name());
          throw new RequestRefused(f == null ? Failure.INTERNAL_ERROR : f, null);
      }
    }
    throw new RequestRefused(Failure.INTERNAL_ERROR, "unexpected reply " + reply.getClass().getSimpleName());
  }

  private static JsonObject job(Reply.JobBody job) {
    JsonObject json = new JsonObject().put("id", job.id()).put("tube", job.tube());
    String text = utf8(job.body());
    return text != null ? json.put("body", text) : json.put("bodyBase64", Base64.getEncoder().encodeToString(job.body()));
  }

  /** The body as text when it is valid UTF-8, else null. */
  private static String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
