package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.protocol.Yaml;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

/** Turns the engine's protocol replies into EVENTBUS.md's JSON replies and failure words. */
public final class BusReplies {
  /** Stats keys whose values are text even when they look like numbers (a tube named "7"). */
  private static final Set<String> TEXT_KEYS = Set.of("name", "tube", "state", "version", "hostname", "os",
      "platform");

  private BusReplies() {}

  /** The JSON reply to {@code action}, or the failure it stands for. */
  static JsonObject toJson(String action, Reply reply) throws RequestRefused {
    if (reply instanceof Reply.Number n) {
      return n.word().equals("KICKED") ? new JsonObject().put("kicked", n.value())
          : new JsonObject().put("id", n.value());
    }
    if (reply instanceof Reply.JobBody job) {
      return job(job);
    }
    if (reply instanceof Reply.Document doc) {
      return action.equals("list-tubes") ? names(doc) : stats(action, doc);
    }
    if (reply instanceof Reply.Word word) {
      switch (word) {
        case DELETED, RELEASED, TOUCHED, KICKED, PAUSED:
          return new JsonObject();
        case BURIED:
          // EVENTBUS.md: a release the server had to bury says so.
          return action.equals("release") ? new JsonObject().put("buried", true) : new JsonObject();
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

  private static JsonObject names(Reply.Document doc) {
    JsonArray tubes = new JsonArray();
    for (String line : Yaml.lines(doc)) {
      tubes.add(line.substring(2));
    }
    return new JsonObject().put("tubes", tubes);
  }

  /** A stats document: the same keys in the same order, numbers as numbers. */
  public static JsonObject stats(String action, Reply.Document doc) {
    JsonObject json = new JsonObject();
    for (String line : Yaml.lines(doc)) {
      int colon = line.indexOf(": ");
      String key = line.substring(0, colon);
      String value = line.substring(colon + 2);
      json.put(key, value(action, key, value));
    }
    return json;
  }

  private static Object value(String action, String key, String value) {
    if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
      return value.substring(1, value.length() - 1);
    }
    // stats' server id is hexadecimal text; stats-job's id is the job's number.
    if (TEXT_KEYS.contains(key) || (key.equals("id") && action.equals("stats"))) {
      return value;
    }
    if (value.equals("true") || value.equals("false")) {
      return Boolean.parseBoolean(value);
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException notWhole) {
      try {
        return Double.parseDouble(value);
      } catch (NumberFormatException notNumber) {
        return value;
      }
    }
  }

}
