package io.github.vertxbeanstalkd.durability;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.durability.JobLedger.Acknowledged;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The crash workload: producers (put into several tubes, some delayed), consumers (reserve, then
 * delete, release with a new priority and perhaps a delay, or bury) and a kicker (kick-job of
 * buried jobs), each on its own connection, all recording in the {@link JobLedger}. They run until
 * the server dies under them.
 */
final class CrashClients {
  static final String[] TUBES = {"default", "mail", "img.resize", "x-y_z(1)"};
  private static final long TTR_SECONDS = 120;
  private static final int READ_TIMEOUT_MILLIS = 15_000;
  private final int port;
  private final JobLedger ledger;
  private final String tokenPrefix;
  private final Random seeds;
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean isKilled;

  CrashClients(int port, JobLedger ledger, String tokenPrefix, long seed) {
    this.port = port;
    this.ledger = ledger;
    this.tokenPrefix = tokenPrefix;
    this.seeds = new Random(seed);
  }

  void start(int producers, int consumers) {
    for (int i = 0; i < producers; i++) {
      int worker = i;
      spawn("producer-" + i, r -> produce(worker, r));
    }
    for (int i = 0; i < consumers; i++) {
      spawn("consumer-" + i, this::consume);
    }
    spawn("kicker", this::kick);
  }

  /** Say so before killing the server: from then on a broken connection is the expected end. */
  void serverKilled() {
    isKilled = true;
  }

  /** Waits for every client to notice the crash; false when one hangs. */
  boolean awaitEnd(long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    for (Thread t : threads) {
      t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      if (t.isAlive()) {
        return false;
      }
    }
    return true;
  }

  private interface Body {
    void run(Random random) throws IOException, InterruptedException;
  }

  private void spawn(String name, Body body) {
    Random random = new Random(seeds.nextLong());
    Thread t = new Thread(() -> {
      try {
        body.run(random);
      } catch (UncheckedIOException e) {
        ended(name, e.getCause());
      } catch (IOException e) {
        ended(name, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "crash-" + name);
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }

  /** A client's connection broke: expected once the server is killed, unless the server fell silent. */
  private void ended(String name, IOException e) {
    if (e instanceof SocketTimeoutException) {
      unexpected(name + ": no reply within " + READ_TIMEOUT_MILLIS + " ms while the server ran");
    } else if (!isKilled) {
      unexpected(name + ": connection lost while the server ran: " + e);
    }
  }

  private void produce(int worker, Random r) throws IOException {
    try (TestClient c = TestClient.open(port, READ_TIMEOUT_MILLIS)) {
      String using = "default";
      for (long seq = 0; !isKilled; seq++) {
        String tube = TUBES[r.nextInt(TUBES.length)];
        if (!tube.equals(using)) {
          expect(c.call("use " + tube), "USING " + tube);
          using = tube;
        }
        String token = tokenPrefix + "." + worker + "." + seq;
        long pri = r.nextInt(2000);
        long delaySeconds = r.nextInt(10) == 0 ? 1 + r.nextInt(3) : 0;
        byte[] body = SentPut.body(token, bodyBytes(r), r);
        SentPut p = SentPut.of(token, tube, pri, delaySeconds, body, System.currentTimeMillis());
        ledger.sent(p);
        String reply = c.sendPut(pri, delaySeconds, TTR_SECONDS, body).readLine();
        if (reply.startsWith("INSERTED ")) {
          ledger.inserted(Long.parseLong(reply.substring("INSERTED ".length())), p, System.currentTimeMillis());
        } else {
          unexpected("put " + token + ": " + reply);
        }
      }
    }
  }

  /** Mostly small, some large enough to fill a 64 KiB segment in a few records. */
  private static int bodyBytes(Random r) {
    int roll = r.nextInt(100);
    return roll < 80 ? 16 + r.nextInt(200) : roll < 95 ? 200 + r.nextInt(2000) : 2000 + r.nextInt(20_000);
  }

  private void consume(Random r) throws IOException {
    try (TestClient c = TestClient.open(port, READ_TIMEOUT_MILLIS)) {
      for (String tube : TUBES) {
        String reply = c.call("watch " + tube);
        if (!reply.startsWith("WATCHING ")) {
          unexpected("watch " + tube + ": " + reply);
        }
      }
      while (!isKilled) {
        String reply = c.call("reserve-with-timeout 1");
        if (reply.equals("TIMED_OUT") || reply.equals("DEADLINE_SOON")) {
          continue;
        }
        if (!reply.startsWith("RESERVED ")) {
          unexpected("reserve: " + reply);
          continue;
        }
        long id = Long.parseLong(reply.split(" ")[1]);
        JobFacts f = ledger.handedOut(id, c.readBody(reply));
        if (f == null) {
          c.call("delete " + id);
          continue;
        }
        synchronized (f) {
          f.handedOut(System.currentTimeMillis());
          change(c, f, r);
        }
      }
    }
  }

  /** One change of a reserved job, recorded before it is sent and acknowledged after its reply. */
  private void change(TestClient c, JobFacts f, Random r) throws IOException {
    int roll = r.nextInt(100);
    long pri = r.nextInt(2000);
    long now = System.currentTimeMillis();
    if (roll < 40) {
      apply(c, f, "delete " + f.id, Outcome.ABSENT, "DELETED", Acknowledged.DELETE);
    } else if (roll < 60) {
      apply(c, f, "release " + f.id + " " + pri + " 0", Outcome.ready(pri), "RELEASED", Acknowledged.RELEASE);
    } else if (roll < 80) {
      long delaySeconds = 1 + r.nextInt(2);
      apply(c, f, "release " + f.id + " " + pri + " " + delaySeconds,
          Outcome.delayed(pri, delaySeconds * 1000, now), "RELEASED", Acknowledged.RELEASE);
    } else if (apply(c, f, "bury " + f.id + " " + pri, Outcome.buried(pri), "BURIED", Acknowledged.BURY)) {
      ledger.buried(f.id);
    }
  }

  private boolean apply(TestClient c, JobFacts f, String command, Outcome change, String success,
      Acknowledged kind) throws IOException {
    f.send(change);
    String reply = c.call(command);
    if (!reply.equals(success)) {
      // Left pending: an error reply does not say whether the change was made.
      unexpected(command + ": " + reply);
      return false;
    }
    f.acknowledge(System.currentTimeMillis());
    ledger.count(kind);
    return true;
  }

  private void kick(Random r) throws IOException, InterruptedException {
    try (TestClient c = TestClient.open(port, READ_TIMEOUT_MILLIS)) {
      while (!isKilled) {
        Thread.sleep(1 + r.nextInt(10)); // paces the kicks among the other clients' work
        Long id = ledger.anyBuried(r);
        JobFacts f = id == null ? null : ledger.get(id);
        if (f == null) {
          continue;
        }
        synchronized (f) {
          ledger.notBuried(f.id);
          if (f.pending == null && f.durable.state().equals(Outcome.BURIED)) {
            apply(c, f, "kick-job " + f.id, Outcome.ready(f.durable.pri()), "KICKED", Acknowledged.KICK);
          }
        }
      }
    }
  }

  private static void expect(String reply, String wanted) throws IOException {
    if (!reply.equals(wanted)) {
      throw new IOException("expected " + wanted + ", got " + reply);
    }
  }

  /** A reply that did come is the server's, killed or not: only broken connections are expected. */
  private void unexpected(String what) {
    ledger.tally.add(CrashTally.Kind.UNEXPECTED_REPLY, what);
  }
}
