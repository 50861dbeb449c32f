package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.bury;
import static io.github.vertxbeanstalkd.engine.Commands.delete;
import static io.github.vertxbeanstalkd.engine.Commands.ignore;
import static io.github.vertxbeanstalkd.engine.Commands.kick;
import static io.github.vertxbeanstalkd.engine.Commands.kickJob;
import static io.github.vertxbeanstalkd.engine.Commands.pauseTube;
import static io.github.vertxbeanstalkd.engine.Commands.peek;
import static io.github.vertxbeanstalkd.engine.Commands.peekBuried;
import static io.github.vertxbeanstalkd.engine.Commands.peekDelayed;
import static io.github.vertxbeanstalkd.engine.Commands.peekReady;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.release;
import static io.github.vertxbeanstalkd.engine.Commands.reserveJob;
import static io.github.vertxbeanstalkd.engine.Commands.reserveWithTimeout;
import static io.github.vertxbeanstalkd.engine.Commands.touch;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static io.github.vertxbeanstalkd.engine.Commands.watch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.protocol.Command;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random commands from a few connections over a few tubes, with time moving in uneven steps; after
 * every step the engine's reply must equal the reference model's, and every so often the whole
 * state is compared. Fixed seeds, so a failure replays exactly; the message names the step.
 */
class RandomizedModelTest {
  static final int STEPS = 4_000;
  static final int SESSIONS = 3;
  static final String[] TUBES = {"default", "a", "b"};
  static final long[] PRIORITIES = {0, 1, 2, 1023, 1024, 4_294_967_295L};
  static final long[] DELAYS = {0, 0, 0, 1, 2, 5};
  static final long[] TTRS = {0, 1, 2, 3, 10};
  static final long[] STEP_MILLIS = {0, 100, 500, 999, 1_000, 1_700, 3_000};

  final EngineFixture f = new EngineFixture();
  final ReferenceModel model = new ReferenceModel(f.clock.nanos());
  final List<Session> sessions = new ArrayList<>();
  final List<Integer> modelIds = new ArrayList<>();
  int nextModelId;
  final List<String> transcript = new ArrayList<>();

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void theEngineAgreesWithTheReferenceModel(long seed) {
    Random r = new Random(seed);
    for (int i = 0; i < SESSIONS; i++) {
      openSession(i);
    }
    for (int step = 0; step < STEPS; step++) {
      int i = r.nextInt(SESSIONS);
      doOneStep(r, i, step);
      if (step % 100 == 0) {
        compareEverything(step);
      }
    }
    compareEverything(STEPS);
  }

  private void doOneStep(Random r, int i, int step) {
    Session s = sessions.get(i);
    int m = modelIds.get(i);
    long anyId = 1 + r.nextInt((int) model.nextId);
    // Mostly a job the caller holds, else any id: random ids alone would rarely hit a reserved job.
    long id = r.nextInt(10) < 7 ? pick(r, heldBy(m), anyId) : anyId;
    String tube = TUBES[r.nextInt(TUBES.length)];
    long pri = PRIORITIES[r.nextInt(PRIORITIES.length)];
    long delay = DELAYS[r.nextInt(DELAYS.length)];
    int kind = r.nextInt(100);
    if (kind < 20) {
      long ttr = TTRS[r.nextInt(TTRS.length)];
      check(step, "put " + pri + " " + delay + " " + ttr, s, put(pri, delay, ttr, "job" + model.nextId),
          model.put(m, pri, delay, ttr));
    } else if (kind < 34) {
      check(step, "reserve-with-timeout 0", s, reserveWithTimeout(0), model.reserveNow(m));
    } else if (kind < 38) {
      check(step, "reserve-job " + anyId, s, reserveJob(anyId), model.reserveJob(m, anyId));
    } else if (kind < 44) {
      check(step, "delete " + id, s, delete(id), model.delete(m, id));
    } else if (kind < 50) {
      check(step, "release " + id, s, release(id, pri, delay), model.release(m, id, pri, delay));
    } else if (kind < 55) {
      check(step, "bury " + id, s, bury(id, pri), model.bury(m, id, pri));
    } else if (kind < 58) {
      check(step, "touch " + id, s, touch(id), model.touch(m, id));
    } else if (kind < 62) {
      long bound = new long[] {0, 1, 2, 5, 100}[r.nextInt(5)];
      check(step, "kick " + bound, s, kick(bound), model.kick(m, bound));
    } else if (kind < 65) {
      long kickable = pick(r, inStates("buried", "delayed"), anyId);
      check(step, "kick-job " + kickable, s, kickJob(kickable), model.kickJob(kickable));
    } else if (kind < 68) {
      check(step, "peek " + anyId, s, peek(anyId), model.peek(anyId));
    } else if (kind < 71) {
      String state = new String[] {"ready", "delayed", "buried"}[r.nextInt(3)];
      Command c = switch (state) {
        case "ready" -> peekReady();
        case "delayed" -> peekDelayed();
        default -> peekBuried();
      };
      check(step, "peek-" + state, s, c, model.peekState(m, state));
    } else if (kind < 76) {
      check(step, "use " + tube, s, use(tube), model.use(m, tube));
    } else if (kind < 81) {
      check(step, "watch " + tube, s, watch(tube), model.watch(m, tube));
    } else if (kind < 86) {
      check(step, "ignore " + tube, s, ignore(tube), model.ignore(m, tube));
    } else if (kind < 88) {
      long seconds = new long[] {0, 1, 3}[r.nextInt(3)];
      check(step, "pause-tube " + tube + " " + seconds, s, pauseTube(tube, seconds), model.pauseTube(tube, seconds));
    } else if (kind < 89) {
      transcript.add(step + ": close " + i);
      f.engine.close(s.key);
      model.close(m);
      openSession(i);
    } else {
      long millis = STEP_MILLIS[r.nextInt(STEP_MILLIS.length)];
      transcript.add(step + ": pass " + millis + " ms");
      f.passMillis(millis);
      model.advance(millis * 1_000_000L);
    }
  }

  private List<Long> heldBy(int m) {
    return model.jobs.values().stream().filter(j -> j.holder == m).map(j -> j.id).toList();
  }

  private List<Long> inStates(String a, String b) {
    return model.jobs.values().stream().filter(j -> j.state.equals(a) || j.state.equals(b)).map(j -> j.id).toList();
  }

  private static long pick(Random r, List<Long> ids, long fallback) {
    return ids.isEmpty() ? fallback : ids.get(r.nextInt(ids.size()));
  }

  private void openSession(int i) {
    Session s = f.open();
    int m = nextModelId++;
    model.open(m);
    if (sessions.size() > i) {
      sessions.set(i, s);
      modelIds.set(i, m);
    } else {
      sessions.add(s);
      modelIds.add(m);
    }
  }

  private void check(int step, String what, Session s, Command c, String expected) {
    transcript.add(step + ": " + what + " -> " + expected);
    String got = f.one(s, c);
    if (!expected.equals(got)) {
      assertEquals(expected, got, "step " + step + " (" + what + "); last steps:\n" + lastSteps());
    }
  }

  private void compareEverything(int step) {
    for (long id = 1; id < model.nextId; id++) {
      Map<String, String> expected = model.statsJob(id);
      Map<String, String> got = null;
      String reply = f.one(observerless(), Commands.statsJob(id));
      if (!reply.equals("NOT_FOUND")) {
        got = EngineFixture.yaml(reply);
        got.keySet().retainAll(expected == null ? List.of() : expected.keySet());
      }
      assertEquals(expected, got, "stats-job " + id + " after step " + step + "; last steps:\n" + lastSteps());
    }
    assertEquals(model.tubes, f.listTubes(), "list-tubes after step " + step + "; last steps:\n" + lastSteps());
    for (int i = 0; i < SESSIONS; i++) {
      assertEquals(model.watched(modelIds.get(i)), f.watched(sessions.get(i)), "watch list of " + i);
    }
    Map<String, String> stats = f.stats();
    assertEquals(Long.toString(model.count("ready")), stats.get("current-jobs-ready"));
    assertEquals(Long.toString(model.count("reserved")), stats.get("current-jobs-reserved"));
    assertEquals(Long.toString(model.count("delayed")), stats.get("current-jobs-delayed"));
    assertEquals(Long.toString(model.count("buried")), stats.get("current-jobs-buried"));
    assertEquals(Long.toString(model.urgentReady()), stats.get("current-jobs-urgent"));
  }

  /** stats-job through the first session: it changes no job and no tube. */
  private Session observerless() {
    return sessions.get(0);
  }

  private String lastSteps() {
    return String.join("\n", transcript.subList(Math.max(0, transcript.size() - 30), transcript.size()));
  }
}
