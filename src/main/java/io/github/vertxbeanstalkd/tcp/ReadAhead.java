package io.github.vertxbeanstalkd.tcp;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The input a TCP front's connections hold, counted together: every chunk a connection's reader
 * holds, whether read ahead of the batch it waits on, lent to that batch (a put's body), or part
 * of a command still arriving. Each may read ahead {@link Connection#INPUT_LIMIT_BYTES} while the
 * total is under the limit.
 *
 * <p>Past it, a connection with a batch out reads nothing more until that batch is answered, and
 * gathers smaller batches, so that a thousand clients pipelining without reading hold a read each,
 * not 64 KiB and a thousand commands as objects each. A connection in the middle of a command
 * (a put's body still arriving) stops reading too, until the total falls below the limit: 2,200 clients pipelining puts of 65,535-byte bodies each held a body or two,
 * and ended a server with {@code -Xmx128m} with OutOfMemoryError. Nobody is closed for any of it,
 * unless the total stays past the limit for {@link #STUCK_NANOS} without once falling below it:
 * then nothing the stopped connections wait for is coming (clients that stopped sending in the
 * middle of a body, or whose batches wait on replies they do not read), and of the connections
 * that stopped reading ({@link #waitForRoom}) the one holding the most is closed, one a check
 * (logged at warn at most every 10 s). One per front verticle, used on its thread only.
 */
final class ReadAhead {
  /** The default limit's share of the heap. */
  static final double HEAP_SHARE = 1.0 / 16;
  /** A batch's commands while the limit is passed (otherwise {@link BatchLimits#MAX_BATCH_COMMANDS}). */
  static final int PRESSED_BATCH_COMMANDS = 64;
  /** How long the total may stay past the limit, never falling below it, before a connection is closed. */
  static final long STUCK_NANOS = 2_000_000_000L;
  private static final long LOG_INTERVAL_NANOS = 10_000_000_000L;
  private static final Logger log = LoggerFactory.getLogger(ReadAhead.class);

  /** A connection that stopped reading until there is room. */
  interface Waiter {
    /** There is room again: read on, unless still held back for another reason. */
    void roomAgain();

    /** Input it holds now, as counted here. */
    long inputBytes();

    /** Replies its client has not taken. */
    long repliesBytes();

    /** The total stayed past the limit: this one holds the most, and is closed. */
    void closeForHoldingInput();
  }

  private final long limitBytes;
  private long totalBytes;
  /** Connections that stopped reading, in the order they stopped. */
  private final LinkedHashSet<Waiter> waiting = new LinkedHashSet<>();
  /** When the total last went past the limit; meaningful while {@link #isPassed()}. */
  private long passedSinceNanos;
  private long closedConnections;
  private long lastLogNanos = System.nanoTime() - LOG_INTERVAL_NANOS;

  ReadAhead() {
    this((long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE));
  }

  ReadAhead(long limitBytes) {
    this.limitBytes = limitBytes;
  }

  /** A connection held {@code before} bytes of input and now holds {@code after}. */
  void changed(long before, long after) {
    boolean wasPassed = isPassed();
    totalBytes += after - before;
    if (!wasPassed && isPassed()) {
      passedSinceNanos = System.nanoTime();
    } else if (wasPassed && !isPassed() && !waiting.isEmpty()) {
      wake();
    }
  }

  /**
   * Lets as many waiting connections read again as a read each fits in the room below the limit
   * (at least one), those holding the most first: a connection part way through a body finishes
   * it and lets it go, rather than every one reading a little more of its own (2,200 clients
   * pipelining large puts, woken all at once, each held most of a body and the heap ran out).
   * Reading starts again on the event loop's next turn (Netty's), not inside this call.
   */
  private void wake() {
    long room = limitBytes - totalBytes;
    int count = (int) Math.max(1, Math.min(waiting.size(), room / PressedReads.PRESSED_READ_BYTES));
    ArrayList<Waiter> woken = new ArrayList<>(waiting);
    if (count < woken.size()) {
      woken.sort((a, b) -> Long.compare(b.inputBytes(), a.inputBytes()));
      woken.subList(count, woken.size()).clear();
    }
    waiting.removeAll(woken);
    for (int i = 0; i < woken.size(); i++) {
      woken.get(i).roomAgain();
    }
  }

  boolean isPassed() {
    return totalBytes > limitBytes;
  }

  /** Past half the limit: reads are {@link PressedReads#PRESSED_READ_BYTES} at most, so a connection woken reads a little at a time. */
  boolean isPressed() {
    return totalBytes > limitBytes / 2;
  }

  /** What a connection waiting on a batch may hold before it stops reading. */
  long allowedBytes() {
    return isPassed() ? 0 : Connection.INPUT_LIMIT_BYTES;
  }

  /** Commands a batch may gather now. */
  int batchCommands() {
    return isPassed() ? PRESSED_BATCH_COMMANDS : BatchLimits.MAX_BATCH_COMMANDS;
  }

  /** {@code w} stopped reading while the limit is passed; it hears {@link Waiter#roomAgain} once it is not. */
  void waitForRoom(Waiter w) {
    waiting.add(w);
  }

  /** {@code w} closed, or reads again for a reason of its own. */
  void stopWaiting(Waiter w) {
    waiting.remove(w);
  }

  /**
   * Called every second or so: once the total has been past the limit for {@link #STUCK_NANOS}
   * without falling below it, closes the waiting connection that holds the most input.
   * Returns whether it closed one.
   */
  boolean check(long nowNanos) {
    if (!isPassed() || nowNanos - passedSinceNanos < STUCK_NANOS || waiting.isEmpty()) {
      return false;
    }
    // A client that does not read its replies goes before one stopped in the middle of a body:
    // that one cannot read its replies until its write is taken (the 512 MiB container's hostile
    // run: a client filling the store was closed beside 1,000 clients pipelining peeks unread).
    Waiter most = null;
    for (Waiter w : waiting) {
      if (most == null || w.repliesBytes() > most.repliesBytes()
          || w.repliesBytes() == most.repliesBytes() && w.inputBytes() > most.inputBytes()) {
        most = w;
      }
    }
    waiting.remove(most);
    closedConnections++;
    // The next one waits for another full period: what this one held may be enough.
    passedSinceNanos = nowNanos;
    long bytes = most.inputBytes();
    most.closeForHoldingInput();
    if (nowNanos - lastLogNanos >= LOG_INTERVAL_NANOS) {
      lastLogNanos = nowNanos;
      log.warn("closed a connection that held {} bytes of input: the connections' input stayed over {} bytes "
          + "for {} s with reading stopped ({} closed so far)", bytes, limitBytes, STUCK_NANOS / 1_000_000_000L,
          closedConnections);
    }
    return true;
  }

  long closedConnections() {
    return closedConnections;
  }
}
