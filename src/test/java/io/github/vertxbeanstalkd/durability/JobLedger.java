package io.github.vertxbeanstalkd.durability;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything the crash workload sent and every acknowledgement it got, across the crash cycles of
 * one trial: the expectation a restarted server is checked against. Thread-safe.
 */
final class JobLedger {
  enum Acknowledged { PUT, DELETE, RELEASE, BURY, KICK }

  final CrashTally tally;
  private final Map<String, SentPut> sent = new ConcurrentHashMap<>();
  private final Map<Long, JobFacts> jobs = new ConcurrentHashMap<>();
  private final Map<String, Long> idOfToken = new ConcurrentHashMap<>();
  private final Set<Long> buried = ConcurrentHashMap.newKeySet();
  private final AtomicLong maxIdSeen = new AtomicLong();
  private final Map<Acknowledged, AtomicLong> acknowledged = new ConcurrentHashMap<>();

  JobLedger(CrashTally tally) {
    this.tally = tally;
    for (Acknowledged a : Acknowledged.values()) {
      acknowledged.put(a, new AtomicLong());
    }
  }

  /** Called before the put leaves, so that no put is on the wire unrecorded. */
  void sent(SentPut p) {
    sent.put(p.token(), p);
  }

  SentPut sentPut(String token) {
    return token == null ? null : sent.get(token);
  }

  void inserted(long id, SentPut p, long ackMillis) {
    JobFacts f = facts(id, p, "INSERTED");
    if (f != null) {
      synchronized (f) {
        f.inserted(ackMillis);
      }
      count(Acknowledged.PUT);
    }
  }

  /** RESERVED {@code id} with {@code body}: the job's facts, or null (and counted) when they disagree. */
  JobFacts handedOut(long id, byte[] body) {
    SentPut p = sentPut(SentPut.tokenOf(body));
    if (p == null || !p.isBodyOf(body)) {
      maxIdSeen.accumulateAndGet(id, Math::max);
      tally.add(CrashTally.Kind.CORRUPTED, "RESERVED " + id + " handed out a body no put sent");
      return null;
    }
    return facts(id, p, "RESERVED");
  }

  /** A job found after a restart that no reply had named: an unacknowledged put that made it. */
  JobFacts adopt(long id, SentPut p) {
    return facts(id, p, "found after the restart");
  }

  private JobFacts facts(long id, SentPut p, String how) {
    maxIdSeen.accumulateAndGet(id, Math::max);
    JobFacts f = jobs.computeIfAbsent(id, k -> new JobFacts(k, p));
    if (f.put != p) {
      tally.add(CrashTally.Kind.ID_REUSE, how + " id " + id + " for put " + p.token()
          + ", an id already given to put " + f.put.token());
      return null;
    }
    Long earlier = idOfToken.putIfAbsent(p.token(), id);
    if (earlier != null && earlier != id) {
      tally.add(CrashTally.Kind.CORRUPTED, "put " + p.token() + " stored twice: as " + earlier + " and " + id);
      return null;
    }
    return f;
  }

  JobFacts get(long id) {
    return jobs.get(id);
  }

  Collection<JobFacts> all() {
    return jobs.values();
  }

  long maxIdSeen() {
    return maxIdSeen.get();
  }

  void buried(long id) {
    buried.add(id);
  }

  void notBuried(long id) {
    buried.remove(id);
  }

  /** A job acknowledged buried, at random; null when there is none. */
  Long anyBuried(Random random) {
    List<Long> ids = new ArrayList<>(buried);
    return ids.isEmpty() ? null : ids.get(random.nextInt(ids.size()));
  }

  void count(Acknowledged a) {
    acknowledged.get(a).incrementAndGet();
  }

  long acknowledged(Acknowledged a) {
    return acknowledged.get(a).get();
  }
}
