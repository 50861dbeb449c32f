package io.github.vertxbeanstalkd.conformance;

import io.github.vertxbeanstalkd.conformance.ClientConnection.Received;
import io.github.vertxbeanstalkd.conformance.ConformanceCase.Expected;
import io.github.vertxbeanstalkd.conformance.ConformanceCase.Step;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Replays one {@link ConformanceCase} against a server on {@code port} and fails with the first
 * reply that differs from the recording.
 */
final class CaseReplay {
  /**
   * After a step with no recorded reply: long enough for a stray reply, and for an open or close to
   * reach our engine before another connection's command does (both travel the event bus).
   */
  private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(25);
  /** A recorded reply arrived within the recorder's 0.2 s quiet wait; this is generous. */
  private static final long REPLY_WAIT_NANOS = TimeUnit.SECONDS.toNanos(3);

  private final ConformanceCase c;
  private final int port;
  private final Runnable drain;
  private final Map<Character, ClientConnection> conns = new TreeMap<>();

  CaseReplay(ConformanceCase c, int port, Runnable drain) {
    this.c = c;
    this.port = port;
    this.drain = drain;
  }

  void run() throws Exception {
    try {
      long lastStepNanos = System.nanoTime();
      for (Step step : c.steps()) {
        if (step.kind() == ConformanceCase.Kind.SLEEP) {
          sleepUntil(lastStepNanos + (long) (step.sleepSeconds() * 1e9));
        }
        lastStepNanos = System.nanoTime();
        perform(step);
        check(step);
      }
      sleepUntil(System.nanoTime() + SETTLE_NANOS);
      checkNothingElse("the end of the case");
    } finally {
      conns.values().forEach(ClientConnection::close);
    }
  }

  private void perform(Step step) throws Exception {
    switch (step.kind()) {
      case SEND -> conn(step.conn()).send(step.payload());
      case OPEN -> conn(step.conn());
      case CLOSE -> conns.remove(step.conn()).close();
      case SHUTDOWN -> conns.get(step.conn()).shutdownOutput();
      case DRAIN -> drain.run();
      case SLEEP -> { }
    }
  }

  private ClientConnection conn(char name) throws Exception {
    ClientConnection existing = conns.get(name);
    if (existing != null) {
      return existing;
    }
    ClientConnection created = new ClientConnection(port, REPLY_WAIT_NANOS);
    conns.put(name, created);
    return created;
  }

  private void check(Step step) throws Exception {
    if (step.expected().isEmpty()) {
      sleepUntil(System.nanoTime() + SETTLE_NANOS);
    }
    long deadline = System.nanoTime() + REPLY_WAIT_NANOS;
    for (Map.Entry<Character, Expected> e : new TreeMap<>(step.expected()).entrySet()) {
      ClientConnection conn = conns.get(e.getKey());
      if (conn == null) {
        throw failure(step, e.getKey(), "a reply", "connection was closed by the client");
      }
      for (byte[] unit : ReplyUnits.split(e.getValue().bytes())) {
        Received got = conn.nextUnit(deadline);
        byte[] want = ReplyUnits.normaliseExpected(unit);
        byte[] actual = got.ending() == null ? ReplyUnits.normaliseActual(unit, got.bytes()) : got.bytes();
        if (got.ending() != null || !Arrays.equals(want, actual)) {
          throw failure(step, e.getKey(), PayloadText.escape(want),
              new Received(actual, got.ending()).describe() + ReplyUnits.documentDifference(want, actual));
        }
      }
      if (e.getValue().isClosed()) {
        Received got = conn.awaitClose(deadline);
        if (!CaseFile.CLOSED.equals(got.ending()) || got.bytes().length > 0) {
          throw failure(step, e.getKey(), CaseFile.CLOSED, got.describe());
        }
        // Our engine learns of a close over the event bus, a moment after the client sees it;
        // the next step may be another connection asking about the closed one's jobs.
        sleepUntil(System.nanoTime() + SETTLE_NANOS);
      }
    }
    checkNothingElse(describe(step));
  }

  private void checkNothingElse(String where) {
    for (Map.Entry<Character, ClientConnection> e : conns.entrySet()) {
      String extra = e.getValue().unexpected();
      if (extra != null) {
        throw new AssertionError(prefix() + "after " + where + ", connection " + e.getKey()
            + " received what beanstalkd did not send: " + extra);
      }
    }
  }

  private AssertionError failure(Step step, char conn, String want, String got) {
    return new AssertionError(prefix() + "after " + describe(step) + ", connection "
        + conn + "\n  beanstalkd: " + want + "\n  ours:       " + got);
  }

  /** The step as written, shortened: some send hundreds of filler bytes. */
  private static String describe(Step step) {
    String text = step.text().length() > 160 ? step.text().substring(0, 150) + "...(" + step.text().length()
        + " chars)" : step.text();
    return "line " + step.line() + " `" + text + "`";
  }

  private String prefix() {
    return c.file() + ":" + c.line() + " case " + c.name() + ": ";
  }

  private static void sleepUntil(long deadlineNanos) throws InterruptedException {
    long waitNanos = deadlineNanos - System.nanoTime();
    if (waitNanos > 0) {
      TimeUnit.NANOSECONDS.sleep(waitNanos);
    }
  }
}
