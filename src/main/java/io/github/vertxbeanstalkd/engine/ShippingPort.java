package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.LogPosition;
import io.github.vertxbeanstalkd.persistence.ReceivedFrames;
import io.github.vertxbeanstalkd.bus.EngineRequest;

/**
 * The engine's own interface for the replication layer (REPLICATION.md): a primary's stream of
 * changes and the gate its replies wait at, and a standby's copy of the primary's jobs. Used only
 * on the engine's thread, through an {@link EngineRequest.OnEngine} request naming this type.
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
public interface ShippingPort {
  /**
   * A primary: every logged change also goes to {@code stream}, and from now on a reply waits until
   * {@link #acknowledge} and {@link #renewLease} allow it.
   */
  void replicateTo(ChangeStream stream);

  /** No longer a primary: nothing is streamed; replies that waited answer INTERNAL_ERROR. */
  void stopReplicating();

  /** Changes up to {@code sequence} are acknowledged (by minAcks standbys, or by the primary alone where allowed). */
  void acknowledge(long sequence);

  /**
   * The group's lock was confirmed at {@code confirmedAtNanos} (System.nanoTime, when the
   * confirmation was sent): the lease runs {@code leaseNanos} from then. Measured when this runs,
   * so a renewal that waited out a pause renews nothing.
   */
  void renewLease(long confirmedAtNanos, long leaseNanos);

  /** whenTooFewStandbys "refuse": changes that need room answer INTERNAL_ERROR while false. */
  void acceptChanges(boolean accepts);

  /** Replies that wait for acknowledgements that will not come answer INTERNAL_ERROR. */
  void failUnacknowledged();

  /** The binlog sequence of the latest change logged. */
  long lastSequence();

  /** The id the next put takes: a copy carries it, so that ids never go back after a promotion. */
  long nextJobId();

  /**
   * A primary issues ids from {@code from} (or from where it is, if further) up to {@code until},
   * exclusive, and refuses puts (INTERNAL_ERROR) beyond it; from {@link #replicateTo} on it issues
   * none until this is called.
   */
  void allowIds(long from, long until);

  /**
   * Reads the current state of the live jobs from slot {@code cursor} on, up to about
   * {@code maxBytes} of them (and a bounded number of slots looked at), and hands the slice to the
   * change stream ({@link ChangeStream#copied}) in its place among the changes. A primary only;
   * a copy starts at cursor 0.
   */
  void copySlice(String standby, long copy, int cursor, int maxBytes);

  /**
   * As {@link #copySlice}, for a standby rewinding the tail its log has and this primary's history
   * has not: the current state of the jobs of {@code ids} from index {@code cursor} on, up to about
   * {@code maxBytes} of them; ids of jobs not held are left out, and the slice's cursor is the
   * index to go on from. A primary only.
   */
  void copyJobs(String standby, long copy, long[] ids, int cursor, int maxBytes);

  /** Where this node's binlog puts its next record; null without a log on disk. */
  LogPosition logPosition();

  /**
   * A standby that starts a fresh copy drops the jobs it holds (logging their deletes), at most
   * {@code maxJobs} of them from slot {@code cursor} on in this turn.
   *
   * @return the slot to go on from, or -1 once every job is gone
   */
  int dropJobs(int cursor, int maxJobs);

  /**
   * This node follows a primary from now on: its jobs change only by {@link #apply}, and its
   * replies (the admin API's reads) wait for its own binlog alone, no longer for a fenced gate.
   */
  void follow();

  /** The highest sequence of this node's own binlog that is durable under its fsync policy. */
  long localDurableSequence();

  /** A standby applies a primary's records, in order, to its jobs and its own binlog (each frame as it came). */
  void apply(ReceivedFrames records);
}
