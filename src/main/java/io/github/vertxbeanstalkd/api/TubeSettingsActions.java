package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.config.TubeSettingsJson;
import io.github.vertxbeanstalkd.bus.EngineClient;
import io.github.vertxbeanstalkd.bus.TubeSettingsAnswer;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.github.vertxbeanstalkd.contract.Action;
import io.github.vertxbeanstalkd.contract.Failure;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

/**
 * The event bus's tube-settings actions: server-wide, not protocol commands, so they go straight to
 * the engine as drain does. {@code tube-settings} reads (one tube's own and effective settings, or
 * the whole table); {@code set-tube-settings} replaces one tube's (or {@code "*"}'s) settings.
 */
final class TubeSettingsActions {
  static final String READ = Action.TUBE_SETTINGS.word();
  static final String SET = Action.SET_TUBE_SETTINGS.word();

  private TubeSettingsActions() {}

  static boolean isOne(String action) {
    return READ.equals(action) || SET.equals(action);
  }

  /** Answers {@code message}, whose action {@link #isOne}. */
  static void run(EngineClient engine, String action, Message<Object> message) {
    JsonObject json;
    String tube;
    TubeSettings settings = null;
    try {
      json = message.body() == null ? new JsonObject() : message.body() instanceof JsonObject o ? o : null;
      if (json == null) {
        throw new RequestRefused(Failure.BAD_FORMAT, "the request must be a JSON object");
      }
      tube = tube(json, SET.equals(action));
      if (SET.equals(action)) {
        settings = TubeSettingsJson.fromJson("settings", json.getValue("settings", new JsonObject()));
      }
    } catch (RequestRefused refused) {
      message.fail(refused.failure().code(), refused.getMessage());
      return;
    } catch (IllegalArgumentException bad) {
      message.fail(Failure.BAD_FORMAT.code(), "BAD_FORMAT " + bad.getMessage());
      return;
    }
    boolean isSet = settings != null;
    engine.tubeSettings(tube, settings).onComplete(r -> {
      if (r.failed()) {
        message.fail(Failure.INTERNAL_ERROR.code(), "INTERNAL_ERROR " + r.cause().getMessage());
      } else if (isSet && !r.result().isChanged()) {
        message.fail(Failure.INTERNAL_ERROR.code(), "INTERNAL_ERROR this node may not change tube settings now");
      } else {
        message.reply(answer(tube, r.result()));
      }
    });
  }

  private static String tube(JsonObject json, boolean isRequired) throws RequestRefused {
    Object v = json.getValue("tube");
    if (v == null && !isRequired) {
      return null;
    }
    if (v instanceof String name && TubeSettings.isTubeOrEveryTube(name)) {
      return name;
    }
    throw new RequestRefused(Failure.BAD_FORMAT, "'tube' must be a tube name or \"*\", got " + v);
  }

  private static JsonObject answer(String tube, TubeSettingsAnswer a) {
    if (tube == null) {
      JsonObject tubes = new JsonObject();
      a.table().forEach((name, s) -> tubes.put(name, s.toJson()));
      return new JsonObject().put("tubes", tubes);
    }
    return new JsonObject().put("tube", tube).put("settings", a.own(tube).toJson())
        .put("effective", a.effective(tube).toJson());
  }
}
