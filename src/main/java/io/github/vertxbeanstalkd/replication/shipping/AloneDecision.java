package io.github.vertxbeanstalkd.replication.shipping;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A primary's decision to acknowledge changes without its standbys (whenTooFewStandbys "serve"),
 * taken only once the group's record holds it for this term (REPLICATION.md "What is promised"),
 * and given back once the standbys hold all it acknowledged alone. A primary cut off from the
 * record's majority cannot take it: its changes wait, then are refused. One write at a time; a
 * failed write is tried again after {@link #RETRY_NANOS}. Runs on the replication node's context.
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
final class AloneDecision {
  private static final Logger log = LoggerFactory.getLogger(AloneDecision.class);
  static final long RETRY_NANOS = 1_000_000_000L;

  private final long term;
  private final AloneRecord record;
  private final long writeTimeoutMillis;
  private final Runnable onNewerTerm;
  private final Runnable onChange;
  /** The record says this term's primary acknowledges alone: it may, until it gives that back. */
  private boolean isRecorded;
  private boolean isWriting;
  /** The last write failed: changes are refused until a write succeeds. */
  private boolean isRefused;
  /**
   * Until when (System.nanoTime) a write of "alone" that failed by its timeout may still be applied
   * by the store (Hazelcast retries an invocation for up to a minute): until then the record is
   * given back every {@link #RECHECK_NANOS} while the standbys hold everything, or no standby could
   * take over after this primary.
   */
  private long mayBeRecordedUntilNanos = System.nanoTime();
  private long nextRecheckNanos;
  static final long LATE_WRITE_NANOS = 70_000_000_000L;
  static final long RECHECK_NANOS = 2_000_000_000L;
  private long retryAtNanos;
  private boolean isStopped;

  /**
   * @param isRecorded the record says so already (this node took over from its own term that went on alone)
   * @param writeTimeoutMillis how long a write may take before it counts as failed
   * @param onNewerTerm the record belongs to a newer term: this node is primary no longer
   * @param onChange a write completed: what may be acknowledged has changed
   */
  AloneDecision(long term, AloneRecord record, boolean isRecorded, long writeTimeoutMillis,
      Runnable onNewerTerm, Runnable onChange) {
    this.term = term;
    this.record = record;
    this.isRecorded = isRecorded;
    this.writeTimeoutMillis = writeTimeoutMillis;
    this.onNewerTerm = onNewerTerm;
    this.onChange = onChange;
  }

  /** This primary may acknowledge changes alone now. */
  boolean isRecorded() {
    return isRecorded;
  }

  /** The record could not be written: changes are refused (INTERNAL_ERROR) until it can. */
  boolean isRefused() {
    return isRefused;
  }

  /** Too few standbys and changes waiting: records that this primary goes on alone, unless under way. */
  void goAlone(long nowNanos) {
    if (isRecorded || isWriting || isStopped || (isRefused && nowNanos - retryAtNanos < 0)) {
      return;
    }
    write(true);
  }

  /** The standbys hold everything acknowledged alone: the record says so, and a later election may promote them. */
  void giveBack(long nowNanos) {
    if (isWriting || isStopped) {
      return;
    }
    boolean mayBeRecorded = nowNanos - mayBeRecordedUntilNanos < 0 && nowNanos - nextRecheckNanos >= 0;
    if (isRecorded || mayBeRecorded) {
      nextRecheckNanos = nowNanos + RECHECK_NANOS;
      write(false);
    }
  }

  void stop() {
    isStopped = true;
  }

  private void write(boolean isAlone) {
    isWriting = true;
    long startNanos = System.nanoTime();
    // The store applies it only within the time this node waits for it (less a margin for the trip back).
    long deadlineMillis = System.currentTimeMillis() + writeTimeoutMillis * 4 / 5;
    record.record(term, isAlone, deadlineMillis).timeout(writeTimeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS)
        .onComplete(r -> {
          isWriting = false;
          if (isStopped) {
            return;
          }
          long tookMillis = (System.nanoTime() - startNanos) / 1_000_000;
          if (r.succeeded() && r.result()) {
            boolean wasRecorded = isRecorded;
            isRecorded = isAlone;
            if (isRefused) {
              log.info("replication: the group's record can be written again");
            }
            isRefused = false;
            if (isAlone) {
              log.info("replication: recorded in the group's record that term {} acknowledges changes alone ({} ms); "
                  + "until its standbys hold them, no standby takes over", term, tookMillis);
            } else if (wasRecorded) {
              log.info("replication: the standbys hold every change term {} acknowledged alone; recorded ({} ms)",
                  term, tookMillis);
            }
          } else if (r.succeeded()) {
            log.warn("replication: a newer term than {} holds the group's record: this node is no longer primary",
                term);
            onNewerTerm.run();
            return;
          } else if (isAlone) {
            mayBeRecordedUntilNanos = System.nanoTime() + LATE_WRITE_NANOS;
            if (!isRefused) {
              log.warn("replication: could not record that term {} goes on alone ({}): the CP Subsystem's "
                  + "majority is out of reach, so changes are refused until it is back", term, r.cause().toString());
            }
            isRefused = true;
            retryAtNanos = System.nanoTime() + RETRY_NANOS;
          } else if (isRecorded) {
            log.info("replication: could not record yet that the standbys hold term {}'s changes ({}); trying again",
                term, r.cause().toString());
          }
          onChange.run();
        });
  }
}
