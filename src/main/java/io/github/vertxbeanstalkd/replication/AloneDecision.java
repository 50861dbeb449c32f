package io.github.vertxbeanstalkd.replication;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A primary's decision to acknowledge changes without its standbys (whenTooFewStandbys "serve"),
 * taken only once the group's record holds it for this term (REPLICATION.md "What is promised"),
 * and given back once the standbys hold all it acknowledged alone. A primary cut off from the
 * record's majority cannot take it: its changes wait, then are refused. One write at a time; a
 * failed write is tried again after {@link #RETRY_NANOS}. Runs on the replication node's context.
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
  void giveBack() {
    if (!isRecorded || isWriting || isStopped) {
      return;
    }
    write(false);
  }

  void stop() {
    isStopped = true;
  }

  private void write(boolean isAlone) {
    isWriting = true;
    long startNanos = System.nanoTime();
    record.record(term, isAlone).timeout(writeTimeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS)
        .onComplete(r -> {
          isWriting = false;
          if (isStopped) {
            return;
          }
          long tookMillis = (System.nanoTime() - startNanos) / 1_000_000;
          if (r.succeeded() && r.result()) {
            isRecorded = isAlone;
            if (isRefused) {
              log.info("replication: the group's record can be written again");
            }
            isRefused = false;
            log.info(isAlone
                ? "replication: recorded in the group's record that term {} acknowledges changes alone ({} ms); "
                    + "until its standbys hold them, no standby takes over"
                : "replication: the standbys hold every change term {} acknowledged alone; recorded ({} ms)",
                term, tookMillis);
          } else if (r.succeeded()) {
            log.warn("replication: a newer term than {} holds the group's record: this node is no longer primary",
                term);
            onNewerTerm.run();
            return;
          } else if (isAlone) {
            if (!isRefused) {
              log.warn("replication: could not record that term {} goes on alone ({}): the CP Subsystem's "
                  + "majority is out of reach, so changes are refused until it is back", term, r.cause().toString());
            }
            isRefused = true;
            retryAtNanos = System.nanoTime() + RETRY_NANOS;
          } else {
            log.info("replication: could not record yet that the standbys hold term {}'s changes ({}); trying again",
                term, r.cause().toString());
          }
          onChange.run();
        });
  }
}
