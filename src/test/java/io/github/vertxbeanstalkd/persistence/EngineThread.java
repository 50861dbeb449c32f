package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Stands in for the engine's event loop: tasks the binlog posts queue up here and run on the test
 * thread when it waits, so the test thread is the engine thread.
 */
final class EngineThread implements Executor {
  private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();

  @Override
  public void execute(Runnable task) {
    tasks.add(task);
  }

  /** Runs posted tasks until {@code condition} holds; fails after {@code timeoutMillis}. */
  void runUntil(BooleanSupplier condition, long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("condition not met within " + timeoutMillis + " ms");
      }
      try {
        // Short polls: the condition may also turn true on another thread (the writer's counters).
        Runnable task = tasks.poll(5, TimeUnit.MILLISECONDS);
        if (task != null) {
          task.run();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted");
      }
    }
  }

  /** Runs posted tasks for {@code millis}, whatever happens. */
  void runFor(long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    for (long left = millis; left > 0; left = deadline - System.nanoTime()) {
      try {
        Runnable task = tasks.poll(left, TimeUnit.NANOSECONDS);
        if (task != null) {
          task.run();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
