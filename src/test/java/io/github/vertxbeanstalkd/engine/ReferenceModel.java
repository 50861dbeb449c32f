package io.github.vertxbeanstalkd.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A deliberately naive beanstalkd, written from BEHAVIOURS.md alone: plain lists, linear scans,
 * no heaps and no timers. The randomized test runs the same commands through it and the engine.
 * Reserves here never block (the test only uses reserve-with-timeout 0).
 */
final class ReferenceModel {
  static final long SECOND = 1_000_000_000L;

  static final class ModelJob {
    final long id;
    final String tube;
    final String body;
    long pri;
    long delaySeconds;
    final long ttrSeconds;
    String state;
    long deadlineNanos;
    int holder = -1;
    long buriedSeq;
    int reserves, timeouts, releases, buries, kicks;

    ModelJob(long id, String tube, long pri, long delaySeconds, long ttrSeconds) {
      this.id = id;
      this.tube = tube;
      this.body = "job" + id;
      this.pri = pri;
      this.delaySeconds = delaySeconds;
      this.ttrSeconds = ttrSeconds == 0 ? 1 : ttrSeconds;
    }
  }

  static final class ModelSession {
    String used = "default";
    final List<String> watched = new ArrayList<>(List.of("default"));
  }

  long now;
  long nextId = 1;
  long buriedSeq;
  final TreeMap<Long, ModelJob> jobs = new TreeMap<>();
  final List<String> tubes = new ArrayList<>(List.of("default"));
  final Map<String, Long> pauseEnd = new HashMap<>();
  final Map<Integer, ModelSession> sessions = new LinkedHashMap<>();

  ReferenceModel(long startNanos) {
    now = startNanos;
  }

  void open(int s) {
    sessions.put(s, new ModelSession());
  }

  void advance(long nanos) {
    now += nanos;
    for (ModelJob j : jobs.values()) {
      if (j.state.equals("delayed") && j.deadlineNanos <= now) {
        j.state = "ready";
      } else if (j.state.equals("reserved") && j.deadlineNanos <= now) {
        j.state = "ready";
        j.holder = -1;
        j.timeouts++;
      }
    }
  }

  String put(int s, long pri, long delay, long ttr) {
    ModelJob j = new ModelJob(nextId++, sessions.get(s).used, pri, delay, ttr);
    jobs.put(j.id, j);
    if (delay > 0) {
      j.state = "delayed";
      j.deadlineNanos = now + delay * SECOND;
    } else {
      j.state = "ready";
    }
    return "INSERTED " + j.id;
  }

  String reserveNow(int s) {
    ModelSession ms = sessions.get(s);
    ModelJob best = jobs.values().stream()
        .filter(j -> j.state.equals("ready") && ms.watched.contains(j.tube) && !isPaused(j.tube))
        .min(readyOrder()).orElse(null);
    if (best != null) {
      return reserve(s, best);
    }
    boolean inMargin = jobs.values().stream()
        .anyMatch(j -> j.holder == s && now >= j.deadlineNanos - SECOND);
    return inMargin ? "DEADLINE_SOON" : "TIMED_OUT";
  }

  String reserveJob(int s, long id) {
    ModelJob j = jobs.get(id);
    return j == null || j.state.equals("reserved") ? "NOT_FOUND" : reserve(s, j);
  }

  private String reserve(int s, ModelJob j) {
    j.state = "reserved";
    j.holder = s;
    j.reserves++;
    j.deadlineNanos = now + j.ttrSeconds * SECOND;
    return "RESERVED " + j.id + " " + j.body;
  }

  String delete(int s, long id) {
    ModelJob j = jobs.get(id);
    if (j == null || (j.state.equals("reserved") && j.holder != s)) {
      return "NOT_FOUND";
    }
    jobs.remove(id);
    deleteIfUnused(j.tube);
    return "DELETED";
  }

  String release(int s, long id, long pri, long delay) {
    ModelJob j = ownReserved(s, id);
    if (j == null) {
      return "NOT_FOUND";
    }
    j.pri = pri;
    j.delaySeconds = delay;
    j.releases++;
    j.holder = -1;
    if (delay > 0) {
      j.state = "delayed";
      j.deadlineNanos = now + delay * SECOND;
    } else {
      j.state = "ready";
    }
    return "RELEASED";
  }

  String bury(int s, long id, long pri) {
    ModelJob j = ownReserved(s, id);
    if (j == null) {
      return "NOT_FOUND";
    }
    j.pri = pri;
    j.holder = -1;
    j.state = "buried";
    j.buries++;
    j.buriedSeq = buriedSeq++;
    return "BURIED";
  }

  String touch(int s, long id) {
    ModelJob j = ownReserved(s, id);
    if (j == null) {
      return "NOT_FOUND";
    }
    j.deadlineNanos = now + j.ttrSeconds * SECOND;
    return "TOUCHED";
  }

  String kick(int s, long bound) {
    String tube = sessions.get(s).used;
    List<ModelJob> buried = inTube(tube, "buried", Comparator.comparingLong(j -> j.buriedSeq));
    List<ModelJob> from = buried.isEmpty() ? inTube(tube, "delayed", delayOrder()) : buried;
    int n = (int) Math.min(bound, from.size());
    for (int i = 0; i < n; i++) {
      from.get(i).state = "ready";
      from.get(i).kicks++;
    }
    return "KICKED " + n;
  }

  String kickJob(long id) {
    ModelJob j = jobs.get(id);
    if (j == null || !(j.state.equals("buried") || j.state.equals("delayed"))) {
      return "NOT_FOUND";
    }
    j.state = "ready";
    j.kicks++;
    return "KICKED";
  }

  String peek(long id) {
    return found(jobs.get(id));
  }

  String peekState(int s, String state) {
    String tube = sessions.get(s).used;
    Comparator<ModelJob> order = switch (state) {
      case "ready" -> readyOrder();
      case "delayed" -> delayOrder();
      default -> Comparator.comparingLong(j -> j.buriedSeq);
    };
    List<ModelJob> list = inTube(tube, state, order);
    return found(list.isEmpty() ? null : list.get(0));
  }

  String use(int s, String tube) {
    ModelSession ms = sessions.get(s);
    create(tube);
    String old = ms.used;
    ms.used = tube;
    deleteIfUnused(old);
    return "USING " + tube;
  }

  String watch(int s, String tube) {
    ModelSession ms = sessions.get(s);
    create(tube);
    if (!ms.watched.contains(tube)) {
      ms.watched.add(tube);
    }
    return "WATCHING " + ms.watched.size();
  }

  String ignore(int s, String tube) {
    ModelSession ms = sessions.get(s);
    int at = ms.watched.indexOf(tube);
    if (at < 0) {
      return "WATCHING " + ms.watched.size();
    }
    if (ms.watched.size() == 1) {
      return "NOT_IGNORED";
    }
    removeMovingLast(ms.watched, at);
    deleteIfUnused(tube);
    return "WATCHING " + ms.watched.size();
  }

  String pauseTube(String tube, long seconds) {
    if (!tubes.contains(tube)) {
      return "NOT_FOUND";
    }
    pauseEnd.put(tube, seconds == 0 ? 0 : now + seconds * SECOND);
    return "PAUSED";
  }

  void close(int s) {
    ModelSession ms = sessions.remove(s);
    for (ModelJob j : jobs.values()) {
      if (j.holder == s) {
        j.holder = -1;
        j.state = "ready";
      }
    }
    deleteIfUnused(ms.used);
    for (String t : ms.watched) {
      deleteIfUnused(t);
    }
  }

  List<String> watched(int s) {
    return sessions.get(s).watched;
  }

  /** The stats-job fields the test compares; age is left out (the engine's creation time is its own). */
  Map<String, String> statsJob(long id) {
    ModelJob j = jobs.get(id);
    if (j == null) {
      return null;
    }
    long timeLeft = j.state.equals("delayed") || j.state.equals("reserved")
        ? Math.max(0, j.deadlineNanos - now) / SECOND : 0;
    Map<String, String> m = new LinkedHashMap<>();
    m.put("tube", j.tube);
    m.put("state", j.state);
    m.put("pri", Long.toString(j.pri));
    m.put("delay", Long.toString(j.delaySeconds));
    m.put("ttr", Long.toString(j.ttrSeconds));
    m.put("time-left", Long.toString(timeLeft));
    m.put("reserves", Integer.toString(j.reserves));
    m.put("timeouts", Integer.toString(j.timeouts));
    m.put("releases", Integer.toString(j.releases));
    m.put("buries", Integer.toString(j.buries));
    m.put("kicks", Integer.toString(j.kicks));
    return m;
  }

  long count(String state) {
    return jobs.values().stream().filter(j -> j.state.equals(state)).count();
  }

  long urgentReady() {
    return jobs.values().stream().filter(j -> j.state.equals("ready") && j.pri < 1024).count();
  }

  private boolean isPaused(String tube) {
    return pauseEnd.getOrDefault(tube, 0L) > now;
  }

  private ModelJob ownReserved(int s, long id) {
    ModelJob j = jobs.get(id);
    return j != null && j.state.equals("reserved") && j.holder == s ? j : null;
  }

  private List<ModelJob> inTube(String tube, String state, Comparator<ModelJob> order) {
    return jobs.values().stream().filter(j -> j.tube.equals(tube) && j.state.equals(state)).sorted(order).toList();
  }

  private static Comparator<ModelJob> readyOrder() {
    return Comparator.<ModelJob>comparingLong(j -> j.pri).thenComparingLong(j -> j.id);
  }

  private static Comparator<ModelJob> delayOrder() {
    return Comparator.<ModelJob>comparingLong(j -> j.deadlineNanos).thenComparingLong(j -> j.id);
  }

  private static String found(ModelJob j) {
    return j == null ? "NOT_FOUND" : "FOUND " + j.id + " " + j.body;
  }

  private void create(String tube) {
    if (!tubes.contains(tube)) {
      tubes.add(tube);
    }
  }

  /** BEHAVIOURS.md 9: a tube goes when no session uses or watches it and no job is in it. */
  private void deleteIfUnused(String tube) {
    if (tube.equals("default") || !tubes.contains(tube)) {
      return;
    }
    boolean isReferenced = jobs.values().stream().anyMatch(j -> j.tube.equals(tube))
        || sessions.values().stream().anyMatch(s -> s.used.equals(tube) || s.watched.contains(tube));
    if (!isReferenced) {
      removeMovingLast(tubes, tubes.indexOf(tube));
      pauseEnd.remove(tube);
    }
  }

  /** BEHAVIOURS.md 9: the last entry moves into the hole. */
  private static void removeMovingLast(List<String> list, int at) {
    String last = list.remove(list.size() - 1);
    if (at < list.size()) {
      list.set(at, last);
    }
  }
}
