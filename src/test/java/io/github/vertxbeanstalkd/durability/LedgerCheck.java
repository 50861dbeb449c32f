package io.github.vertxbeanstalkd.durability;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.durability.CrashTally.Kind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Checks a restarted server against the {@link JobLedger}: a probe put first (its id is above
 * every id the log holds, and must be above every id ever seen), then peek and stats-job of every
 * id below it. Each job found or missing is judged against what was acknowledged, and then settles
 * the ledger: what the restart showed is the truth the next cycle starts from.
 */
final class LedgerCheck {
  private static final int BATCH_IDS = 256;
  private final TestClient c;
  private final JobLedger ledger;
  private final long crashMillis;

  private LedgerCheck(TestClient c, JobLedger ledger, long crashMillis) {
    this.c = c;
    this.ledger = ledger;
    this.crashMillis = crashMillis;
  }

  /** @param crashMillis when the server was killed (changes never acknowledged were made before) */
  static void run(int port, JobLedger ledger, long crashMillis, String probeToken) throws IOException {
    try (TestClient c = TestClient.open(port, 60_000)) {
      new LedgerCheck(c, ledger, crashMillis).check(probeToken);
    }
  }

  private void check(String probeToken) throws IOException {
    byte[] body = SentPut.body(probeToken, 32, new Random());
    SentPut probe = SentPut.of(probeToken, "probe", 0, 0, body, System.currentTimeMillis());
    ledger.sent(probe);
    c.send("use probe").sendPut(0, 0, 120, body);
    String using = c.readLine();
    String inserted = c.readLine();
    if (!using.equals("USING probe") || !inserted.startsWith("INSERTED ")) {
      throw new IOException("probe put: " + using + " / " + inserted);
    }
    long probeId = Long.parseLong(inserted.substring("INSERTED ".length()));
    long top = Math.max(probeId - 1, ledger.maxIdSeen());
    if (probeId <= ledger.maxIdSeen()) {
      ledger.tally.add(Kind.ID_REUSE, "after the restart the first new id is " + probeId
          + ", not above " + ledger.maxIdSeen() + ", the highest seen");
    }
    ledger.inserted(probeId, probe, System.currentTimeMillis());
    for (long from = 1; from <= top; from += BATCH_IDS) {
      long to = Math.min(top, from + BATCH_IDS - 1);
      long sentMillis = System.currentTimeMillis();
      List<String> batch = new ArrayList<>();
      for (long id = from; id <= to; id++) {
        batch.add("peek " + id);
        batch.add("stats-job " + id);
      }
      c.send(batch.toArray(String[]::new));
      for (long id = from; id <= to; id++) {
        String peek = c.readLine();
        byte[] found = peek.startsWith("FOUND ") ? c.readBody(peek) : null;
        String stats = c.readLine();
        Map<String, String> job = stats.startsWith("OK ") ? c.readYaml(stats) : null;
        if ((found == null) != (job == null) || (found == null && !peek.equals("NOT_FOUND"))) {
          ledger.tally.add(Kind.UNEXPECTED_REPLY, "job " + id + ": peek said " + peek + ", stats-job " + stats);
          continue;
        }
        judge(id, found, job, sentMillis, System.currentTimeMillis());
      }
    }
    for (JobFacts f : ledger.all()) {
      synchronized (f) {
        if (f.durable.state().equals(Outcome.BURIED)) {
          ledger.buried(f.id);
        } else {
          ledger.notBuried(f.id);
        }
      }
    }
  }

  private void judge(long id, byte[] body, Map<String, String> job, long sentMillis, long readMillis) {
    Outcome seen = body == null ? Outcome.ABSENT : seen(job, sentMillis, readMillis);
    JobFacts f = ledger.get(id);
    if (f == null && body == null) {
      return;
    }
    if (f == null) {
      SentPut p = ledger.sentPut(SentPut.tokenOf(body));
      if (p == null || !p.isBodyOf(body) || !p.tube().equals(job.get("tube"))) {
        ledger.tally.add(Kind.CORRUPTED, "job " + id + " in " + job.get("tube") + ", body "
            + preview(body) + ": no put sent it");
        return;
      }
      f = ledger.adopt(id, p);
      if (f == null) {
        return;
      }
    }
    synchronized (f) {
      List<Outcome> allowed = f.allowed();
      if (body != null && (!f.put.isBodyOf(body) || !f.put.tube().equals(job.get("tube")))) {
        ledger.tally.add(Kind.CORRUPTED, "job " + id + " (put " + f.put.token() + " into " + f.put.tube()
            + ") is in " + job.get("tube") + " with body " + preview(body));
      } else if (allowed.stream().noneMatch(o -> o.admits(seen, sentMillis, crashMillis))) {
        Kind kind = body == null ? Kind.LOST
            : allowed.stream().noneMatch(Outcome::exists) ? Kind.RESURRECTED : Kind.WRONG_STATE;
        ledger.tally.add(kind, "job " + id + " (put " + f.put.token() + (f.isConfirmed ? "" : ", unconfirmed")
            + ") is " + seen + ", allowed " + allowed + ", crash at " + crashMillis + ", seen at " + sentMillis);
      }
      f.settle(seen);
    }
  }

  /** A delayed job's deadline: time-left whole seconds after some moment of the request. */
  private static Outcome seen(Map<String, String> job, long sentMillis, long readMillis) {
    long pri = Long.parseLong(job.get("pri"));
    String state = job.get("state");
    if (!state.equals(Outcome.DELAYED)) {
      return new Outcome(true, pri, state, 0, 0, 0);
    }
    long leftMillis = Long.parseLong(job.get("time-left")) * 1000;
    // Due within the second: a deadline that passed while the server was down is "now" after the
    // restart, until the first tick makes the job ready, so only the upper bound is known.
    long low = leftMillis == 0 ? 0 : sentMillis + leftMillis;
    return Outcome.delayedBetween(pri, low, readMillis + leftMillis + 1000);
  }

  private static String preview(byte[] body) {
    String s = new String(body, 0, Math.min(40, body.length), StandardCharsets.ISO_8859_1);
    return s.replaceAll("[^\\x20-\\x7e]", "?") + " (" + body.length + " bytes)";
  }
}
