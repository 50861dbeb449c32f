package io.github.vertxbeanstalkd.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The one thread that drives every connection of a case: it blocks in select, hands replies to
 * the running {@link Phase}, and writes each connection that got new commands once per wake-up,
 * so a burst of pipelined replies costs one write. A phase ends when it is done, when the server
 * closes a connection, or when nothing arrives for the stall limit (reported as an error).
 */
final class SelectorLoop implements AutoCloseable {
  private static final long SELECT_TIMEOUT_MILLIS = 10;
  /** Past this many protocol errors in one phase the server is clearly misbehaving: stop. */
  private static final long MAX_ERRORS = 1000;

  private final Selector selector;
  /** Made once: a method reference evaluated per select would allocate per wake-up. */
  private final Consumer<SelectionKey> onReady = this::onReady;
  private final long stallNanos;
  private BenchConnection[] dirty = new BenchConnection[64];
  private int dirtyCount;
  private Phase phase;
  private boolean hasProgressed;
  private String failure;

  SelectorLoop(long stallMillis) throws IOException {
    this.selector = Selector.open();
    this.stallNanos = TimeUnit.MILLISECONDS.toNanos(stallMillis);
  }

  SelectionKey register(SocketChannel channel, BenchConnection connection)
      throws ClosedChannelException {
    return channel.register(selector, SelectionKey.OP_READ, connection);
  }

  void markDirty(BenchConnection connection) {
    if (dirtyCount == dirty.length) {
      dirty = Arrays.copyOf(dirty, dirtyCount * 2);
    }
    dirty[dirtyCount++] = connection;
  }

  /** Runs the phase to its end; returns false if it was cut short (errors say why). */
  boolean run(Phase running) throws IOException {
    this.phase = running;
    this.failure = null;
    long now = System.nanoTime();
    running.start(now);
    flushDirty();
    long lastProgressNanos = now;
    while (!running.isDone()) {
      hasProgressed = false;
      selector.select(onReady, SELECT_TIMEOUT_MILLIS);
      now = System.nanoTime();
      if (failure != null) {
        running.errors().addFatal(failure);
        return false;
      }
      if (running.errors().count() > MAX_ERRORS) {
        running.errors().addFatal(
            "gave up after " + MAX_ERRORS + " errors; " + running.describeProgress());
        return false;
      }
      running.onTick(now);
      flushDirty();
      if (hasProgressed) {
        lastProgressNanos = now;
      } else if (now - lastProgressNanos > stallNanos) {
        running.errors().addFatal("stall: no reply for " + TimeUnit.NANOSECONDS.toMillis(stallNanos)
            + " ms; " + running.describeProgress());
        return false;
      }
    }
    return true;
  }

  private void onReady(SelectionKey key) {
    if (failure != null || !key.isValid()) {
      return;
    }
    BenchConnection connection = (BenchConnection) key.attachment();
    try {
      if (key.isWritable()) {
        connection.flush();
      }
      if (key.isReadable()) {
        if (connection.readReplies(phase, System.nanoTime()) < 0) {
          failure = "connection closed by the server; " + phase.describeProgress();
        }
        hasProgressed = true;
      }
    } catch (IOException e) {
      failure = "I/O error: " + e.getMessage() + "; " + phase.describeProgress();
    }
  }

  private void flushDirty() {
    try {
      for (int i = 0; i < dirtyCount; i++) {
        dirty[i].flush();
        dirty[i] = null;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      dirtyCount = 0;
    }
  }

  @Override
  public void close() throws IOException {
    for (SelectionKey key : selector.keys()) {
      ((BenchConnection) key.attachment()).close();
    }
    selector.close();
  }
}
