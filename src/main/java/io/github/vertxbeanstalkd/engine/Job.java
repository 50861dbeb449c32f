package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.JobState;

/**
 * One job: its immutable identity and body, and the mutable state the engine moves it through.
 * Kept compact (no boxed fields, intrusive links) because a server may hold millions of them.
 */
final class Job {
  final long id;
  final Tube tube;
  final byte[] body;
  final long createdNanos;

  int priority;
  int delaySeconds;
  int ttrSeconds;
  JobState state;
  /** When a delayed job becomes ready, or when a reserved job's TTR runs out. */
  long deadlineNanos;
  Session reservedBy;

  /** Position in the tube's ready or delayed heap (the states are exclusive). */
  int tubeHeapPosition = -1;
  /** Position in the engine's deadline heap (delayed and reserved jobs). */
  int deadlineHeapPosition = -1;
  /** Links in the tube's buried list or the holder's reserved list (the states are exclusive). */
  Job previous;
  Job next;

  int reserves;
  int timeouts;
  int releases;
  int buries;
  int kicks;

  Job(long id, Tube tube, byte[] body, long createdNanos, int priority, int delaySeconds, int ttrSeconds) {
    this.id = id;
    this.tube = tube;
    this.body = body;
    this.createdNanos = createdNanos;
    this.priority = priority;
    this.delaySeconds = delaySeconds;
    this.ttrSeconds = ttrSeconds;
  }

  long ttrNanos() {
    return Integer.toUnsignedLong(ttrSeconds) * Clock.SECOND_NANOS;
  }

  long delayNanos() {
    return Integer.toUnsignedLong(delaySeconds) * Clock.SECOND_NANOS;
  }

  /** protocol.txt: priorities below 1024 are urgent. */
  boolean isUrgent() {
    return Integer.compareUnsigned(priority, 1024) < 0;
  }

  /** The reserve order: smaller priority first, then the older job. */
  boolean isBefore(Job other) {
    int byPriority = Integer.compareUnsigned(priority, other.priority);
    return byPriority < 0 || (byPriority == 0 && id < other.id);
  }

  /** The timer order: sooner deadline first, then the older job. */
  boolean isDueBefore(Job other) {
    return deadlineNanos < other.deadlineNanos || (deadlineNanos == other.deadlineNanos && id < other.id);
  }
}
