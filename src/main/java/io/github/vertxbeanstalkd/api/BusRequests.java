package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.contract.Action;
import io.github.vertxbeanstalkd.contract.Failure;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.CommandParser;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Turns an event-bus request (the {@code action} header and a JSON body) into the protocol's
 * command, checking every field as EVENTBUS.md says: a missing or ill-typed field is BAD_FORMAT,
 * an unknown action UNKNOWN_COMMAND, a body over the size limit JOB_TOO_BIG.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 * @see <a href="{@docRoot}/../spec/EVENTBUS.html">EVENTBUS.md</a>
 */
final class BusRequests {
  /** EVENTBUS.md: the default priority of put and release, 2^31. */
  static final long DEFAULT_PRIORITY = 1L << 31;
  static final long DEFAULT_TTR_SECONDS = 60;
  /** protocol.txt: priorities, delays, TTRs, timeouts and kick bounds are unsigned 32-bit. */
  private static final long MAX_U32 = 0xFFFF_FFFFL;
  /** A session name is the client's key into the engine's table: keep it short. */
  static final int MAX_SESSION_CHARS = 200;
  private static final List<String> DEFAULT_TUBES = List.of("default");

  private final long maxJobSizeBytes;

  BusRequests(long maxJobSizeBytes) {
    this.maxJobSizeBytes = maxJobSizeBytes;
  }

  BusRequest parse(String action, Object body) throws RequestRefused {
    if (action == null) {
      throw new RequestRefused(Failure.UNKNOWN_COMMAND, "the 'action' header is missing");
    }
    JsonObject json;
    if (body == null) {
      json = new JsonObject();
    } else if (body instanceof JsonObject o) {
      json = o;
    } else {
      throw new RequestRefused(Failure.BAD_FORMAT, "the request must be a JSON object");
    }
    String session = text(json, "session", null, MAX_SESSION_CHARS);
    String node = text(json, "node", null, MAX_SESSION_CHARS);
    Call c = new Call(action, session, node);
    Action named = Action.of(action);
    if (named == null) {
      throw new RequestRefused(Failure.UNKNOWN_COMMAND, "unknown action '" + action + "'");
    }
    switch (named) {
      case PUT -> {
        String tube = tube(json);
        byte[] bytes = body(json);
        long pri = number(json, "pri", DEFAULT_PRIORITY, MAX_U32);
        long delay = number(json, "delay", 0, MAX_U32);
        long ttr = number(json, "ttr", DEFAULT_TTR_SECONDS, MAX_U32);
        Command cmd = bytes.length > maxJobSizeBytes
            ? new Command.JobTooBig()
            : new Command.Put((int) pri, (int) delay, (int) ttr, bytes, true);
        return c.using(tube, cmd);
      }
      case RESERVE -> {
        c.requireSession();
        List<String> tubes = tubes(json);
        // EVENTBUS.md: reserve waits at most 'timeout' seconds and the sender's send timeout lies
        // above that, so the bus has no "forever": a negative timeout stays BAD_FORMAT, unlike
        // reserve-with-timeout -1 on TCP (BEHAVIOURS.md 3).
        return c.watching(tubes, new Command.Reserve(number(json, "timeout", 0, MAX_U32)));
      }
      case RESERVE_JOB -> {
        c.requireSession();
        return c.of(new Command.ReserveJob(id(json)));
      }
      case DELETE -> {
        return c.of(new Command.Delete(id(json)));
      }
      case RELEASE -> {
        long id = id(json);
        long pri = number(json, "pri", DEFAULT_PRIORITY, MAX_U32);
        return c.of(new Command.Release(id, (int) pri, (int) number(json, "delay", 0, MAX_U32)));
      }
      case BURY -> {
        long id = id(json);
        long pri = number(json, "pri", -1, MAX_U32);
        return c.of(pri < 0 ? Command.Bury.keepingPriority(id) : new Command.Bury(id, (int) pri));
      }
      case TOUCH -> {
        return c.of(new Command.Touch(id(json)));
      }
      case KICK -> {
        String tube = tube(json);
        return c.using(tube, new Command.Kick(required(json, "bound", MAX_U32)));
      }
      case KICK_JOB -> {
        return c.of(new Command.KickJob(id(json)));
      }
      case PEEK -> {
        return c.of(new Command.Peek(id(json)));
      }
      case PEEK_READY -> {
        return c.using(tube(json), Command.PeekState.READY);
      }
      case PEEK_DELAYED -> {
        return c.using(tube(json), Command.PeekState.DELAYED);
      }
      case PEEK_BURIED -> {
        return c.using(tube(json), Command.PeekState.BURIED);
      }
      case STATS_JOB -> {
        return c.of(new Command.StatsJob(id(json)));
      }
      case STATS_TUBE -> {
        return c.of(new Command.StatsTube(tube(json)));
      }
      case STATS -> {
        return c.of(Command.Stats.INSTANCE);
      }
      case LIST_TUBES -> {
        return c.of(Command.ListTubes.INSTANCE);
      }
      case PAUSE_TUBE -> {
        String tube = tube(json);
        return c.of(new Command.PauseTube(tube, number(json, "delay", 0, MAX_U32)));
      }
      case FLUSH -> {
        if (json.getValue("tube") == null) {
          // Deleting jobs takes a tube named on purpose, never the default by omission.
          throw new RequestRefused(Failure.BAD_FORMAT, "flush needs a 'tube'");
        }
        String tube = tube(json);
        Object state = json.getValue("state");
        Command.Flush flush = state instanceof String word ? Command.Flush.named(word) : null;
        if (flush == null) {
          throw new RequestRefused(Failure.BAD_FORMAT, "flush needs a 'state': ready, delayed, buried or all");
        }
        return c.using(tube, flush);
      }
      case QUIT -> {
        c.requireSession();
        return c.of(Command.Quit.INSTANCE);
      }
      // Server-wide, answered by the front before a request is parsed; never a session's command.
      default -> throw new RequestRefused(Failure.UNKNOWN_COMMAND, "unknown action '" + action + "'");
    }
  }

  /** The parts every request shares, and the ways to finish one. */
  private record Call(String action, String session, String node) {
    void requireSession() throws RequestRefused {
      if (session == null) {
        throw new RequestRefused(Failure.BAD_FORMAT, action + " needs a 'session'");
      }
    }

    BusRequest of(Command cmd) {
      return new BusRequest(action, session, node, Scope.NONE, cmd);
    }

    BusRequest using(String tube, Command cmd) {
      return new BusRequest(action, session, node, Scope.using(tube), cmd);
    }

    BusRequest watching(List<String> tubes, Command cmd) {
      return new BusRequest(action, session, node, Scope.watching(tubes), cmd);
    }

  }

  private static String tube(JsonObject json) throws RequestRefused {
    Object v = json.getValue("tube");
    if (v == null) {
      return "default";
    }
    return tubeName("tube", v);
  }

  private static List<String> tubes(JsonObject json) throws RequestRefused {
    Object v = json.getValue("tubes");
    if (v == null) {
      return DEFAULT_TUBES;
    }
    if (!(v instanceof JsonArray array) || array.isEmpty()) {
      throw new RequestRefused(Failure.BAD_FORMAT, "'tubes' must be a non-empty array of tube names");
    }
    List<String> names = new ArrayList<>(array.size());
    for (Object name : array) {
      String checked = tubeName("tubes", name);
      if (!names.contains(checked)) {
        names.add(checked);
      }
    }
    return names;
  }

  private static String tubeName(String field, Object v) throws RequestRefused {
    if (v instanceof String name && CommandParser.isValidTubeName(name)) {
      return name;
    }
    throw new RequestRefused(Failure.BAD_FORMAT, "'" + field + "' must hold valid tube names, got " + v);
  }

  private static byte[] body(JsonObject json) throws RequestRefused {
    Object text = json.getValue("body");
    // The raw value: getValue would turn bytes handed over in this JVM into base64 text first.
    Object base64 = json.getMap().get("bodyBase64");
    if (text != null && base64 != null) {
      throw new RequestRefused(Failure.BAD_FORMAT, "give 'body' or 'bodyBase64', not both");
    }
    if (text instanceof String s) {
      return s.getBytes(StandardCharsets.UTF_8);
    }
    if (base64 instanceof String s) {
      try {
        return Base64.getDecoder().decode(s);
      } catch (IllegalArgumentException e) {
        throw new RequestRefused(Failure.BAD_FORMAT, "'bodyBase64' is not base64: " + e.getMessage());
      }
    }
    if (base64 instanceof byte[] bytes) {
      // The typed client in this JVM hands the bytes over as they are: nothing to decode.
      return bytes;
    }
    throw new RequestRefused(Failure.BAD_FORMAT, "put needs a string 'body' or 'bodyBase64'");
  }

  private static long id(JsonObject json) throws RequestRefused {
    return required(json, "id", Long.MAX_VALUE);
  }

  private static long required(JsonObject json, String field, long max) throws RequestRefused {
    if (json.getValue(field) == null) {
      throw new RequestRefused(Failure.BAD_FORMAT, "'" + field + "' is required");
    }
    return number(json, field, 0, max);
  }

  /** A whole JSON number from 0 to {@code max}; absent gives {@code fallback}. */
  private static long number(JsonObject json, String field, long fallback, long max) throws RequestRefused {
    Object v = json.getValue(field);
    if (v == null) {
      return fallback;
    }
    if (v instanceof Number n && (n instanceof Integer || n instanceof Long
        || n.doubleValue() == Math.rint(n.doubleValue()))) {
      double d = n.doubleValue();
      long value = n.longValue();
      if (value >= 0 && value <= max && d >= 0 && d <= (double) max) {
        return value;
      }
    }
    throw new RequestRefused(Failure.BAD_FORMAT, "'" + field + "' must be a whole number from 0 to " + max
        + ", got " + v);
  }

  private static String text(JsonObject json, String field, String fallback, int maxChars) throws RequestRefused {
    Object v = json.getValue(field);
    if (v == null) {
      return fallback;
    }
    if (v instanceof String s && !s.isEmpty() && s.length() <= maxChars) {
      return s;
    }
    throw new RequestRefused(Failure.BAD_FORMAT, "'" + field + "' must be a string of 1 to " + maxChars
        + " characters");
  }
}
