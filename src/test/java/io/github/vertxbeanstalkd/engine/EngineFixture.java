package io.github.vertxbeanstalkd.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.bus.SessionKey;
import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.store.DirectMemory;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One engine on a fake clock, with sessions opened by number and replies rendered as short text
 * ({@code RESERVED 3 body}, {@code INSERTED 1}, {@code OK <yaml>}) so tests read like transcripts.
 */
final class EngineFixture {
  final FakeClock clock = new FakeClock();
  final RecordingSink sink = new RecordingSink();
  final QueueEngine engine;
  private int nextKey = 1;
  private Session observer;

  EngineFixture() {
    this(65_535);
  }

  EngineFixture(long maxJobSizeBytes) {
    engine = new QueueEngine(clock, sink, ServerInfo.forTests(), maxJobSizeBytes);
  }

  /** An engine whose job store has only what {@code memory} allows. */
  EngineFixture(DirectMemory memory) {
    engine = new QueueEngine(clock, sink, ServerInfo.forTests(), 65_535,
        Binlog.inMemory(BinlogConfig.inMemory()), memory);
  }

  /** An engine that logs to {@code binlog}. */
  EngineFixture(Binlog binlog) {
    engine = new QueueEngine(clock, sink, ServerInfo.forTests(), 65_535, binlog);
  }

  /** A new connection's session. */
  Session open() {
    SessionKey key = new SessionKey("test", nextKey++);
    engine.open(key, true);
    return engine.session(key);
  }

  /** Submits the commands in one batch and returns what {@code s} was sent meanwhile. */
  List<String> send(Session s, Command... commands) {
    engine.submit(s.key, List.of(commands), Scope.NONE);
    return take(s);
  }

  /** Submits one command and returns its single reply. */
  String one(Session s, Command command) {
    List<String> replies = send(s, command);
    assertEquals(1, replies.size(), () -> "expected one reply, got " + replies);
    return replies.get(0);
  }

  /** What {@code s} has been sent since the last take. */
  List<String> take(Session s) {
    List<String> out = new ArrayList<>();
    for (Reply r : sink.take(s.key)) {
      out.add(text(r));
    }
    return out;
  }

  /** Moves time on and runs every timer that is due, however many tick() calls that takes. */
  void passMillis(long millis) {
    clock.advanceMillis(millis);
    runDueTimers();
  }

  void passSeconds(long seconds) {
    passMillis(seconds * 1000);
  }

  void runDueTimers() {
    while (engine.nextDeadlineNanos() <= clock.nanos()) {
      engine.tick();
    }
  }

  Map<String, String> statsJob(long id) {
    return yaml(one(observer(), Commands.statsJob(id)));
  }

  String state(long id) {
    return statsJob(id).get("state");
  }

  Map<String, String> statsTube(String tube) {
    return yaml(one(observer(), Commands.statsTube(tube)));
  }

  Map<String, String> stats() {
    return yaml(one(observer(), Commands.stats()));
  }

  List<String> listTubes() {
    return list(one(observer(), Commands.listTubes()));
  }

  List<String> watched(Session s) {
    return list(one(s, Commands.listTubesWatched()));
  }

  /** A session of its own for looking at state, so tests' sessions stay untouched. */
  private Session observer() {
    if (observer == null) {
      observer = open();
    }
    return observer;
  }

  static String text(Reply r) {
    if (r instanceof Reply.Word w) {
      return w.name();
    } else if (r instanceof Reply.Number n) {
      return n.word() + " " + n.value();
    } else if (r instanceof Reply.Using u) {
      return "USING " + u.tube();
    } else if (r instanceof Reply.JobBody j) {
      return j.word() + " " + Long.toUnsignedString(j.id()) + " " + new String(j.body(), StandardCharsets.ISO_8859_1);
    } else if (r instanceof Reply.Stats d) {
      return "OK " + new String(d.document().yaml(), StandardCharsets.ISO_8859_1);
    } else if (r instanceof Reply.TubeNames names) {
      return "OK " + new String(names.yaml(), StandardCharsets.ISO_8859_1);
    }
    throw new AssertionError("unknown reply " + r);
  }

  /** The keys of a stats document, in order. */
  static Map<String, String> yaml(String okReply) {
    if (!okReply.startsWith("OK ---\n")) {
      throw new AssertionError("not a YAML document: " + okReply);
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (String line : okReply.substring("OK ---\n".length()).split("\n")) {
      int colon = line.indexOf(": ");
      map.put(line.substring(0, colon), line.substring(colon + 2));
    }
    return map;
  }

  /** The entries of a YAML list document, in order. */
  static List<String> list(String okReply) {
    if (!okReply.startsWith("OK ---\n")) {
      throw new AssertionError("not a YAML document: " + okReply);
    }
    List<String> names = new ArrayList<>();
    for (String line : okReply.substring("OK ---\n".length()).split("\n")) {
      if (!line.startsWith("- ")) {
        throw new AssertionError("not a list entry: " + line);
      }
      names.add(line.substring(2));
    }
    return names;
  }
}
