package io.github.vertxbeanstalkd.replication.election;

/**
 * The replication group's leader lock (REPLICATION.md "Election and fencing"): the node that holds
 * it is the primary, and its fencing token is the term. Beside it, in the same linearizable store,
 * the group's record of whether the primary of the newest term acknowledged changes alone (as
 * Patroni's {@code /sync} key): a primary writes it before it acknowledges anything alone, and a
 * node that takes the lock claims it for its term first, so an isolated primary cannot go on alone
 * and no standby that lacks what was acknowledged alone is promoted. Implementations block, so they
 * run on a thread of their own, never on an event loop.
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
public interface GroupLock {
  /** Hears what becomes of the lock, on the lock's own thread. */
  interface Listener {
    /**
     * This node holds the lock as {@code term}, and the record is claimed for it; it was confirmed at
     * {@code confirmedAtNanos} (System.nanoTime). {@code isAlone}: the record says this term's
     * primary holds changes no standby has (it took over from its own term that went on alone).
     */
    void acquired(long term, long confirmedAtNanos, boolean isAlone);

    /** Still held: confirmed at {@code confirmedAtNanos}. */
    void confirmed(long term, long confirmedAtNanos);

    /** Lost (its CP session was closed, or the CP group cannot be reached): step down at once. */
    void lost(long term, String why);
  }

  /**
   * Starts competing for the lock, for good: acquired, confirmed every so often, and lost are told.
   * Before each try the lock asks {@code mayCompete}: a node that could lose acknowledged changes
   * by taking over (it is not caught up, or another standby holds more) lets the lock be. Once it
   * holds the lock it claims the record for the new term, unless the record says the primary of an
   * earlier term acknowledged changes alone and that term is not {@code ledTerm} (the term this
   * node led last, whose changes it still holds; -1: none) and not older than {@code heldTerm}
   * (the newest term whose stream this node holds complete, which holds all that older terms
   * acknowledged; -1: none): then it lets the lock go again.
   */
  void start(Listener listener, java.util.function.BooleanSupplier mayCompete,
      java.util.function.LongSupplier ledTerm, java.util.function.LongSupplier heldTerm);

  /**
   * The term whose primary acknowledged changes alone, as the record says now (a linearizable
   * read), or -1 when the standbys hold everything acknowledged. Blocks; throws when the store
   * cannot be reached.
   */
  long aloneTerm();

  /**
   * Records, fenced by {@code term}, whether this term's primary acknowledges changes alone
   * ({@code isAlone}), or that its standbys hold all it acknowledged alone again (false). Completes
   * with false when a newer term claimed the record (this node is no longer primary), and
   * exceptionally when the store cannot be reached (an isolated primary). Not applied after
   * {@code deadlineMillis} (wall clock), so a write its caller gave up on does not land later.
   */
  java.util.concurrent.CompletionStage<Boolean> recordAlone(long term, boolean isAlone, long deadlineMillis);

  /**
   * Takes a range of {@code count} job ids that no other node was or will be given: from the
   * store's counter, or from {@code atLeast} if that is further (the store may have lost its
   * counter when every node restarted; the binlog did not). Completes with the range's first id,
   * and exceptionally when the store cannot be reached.
   */
  java.util.concurrent.CompletionStage<Long> takeIds(long atLeast, long count);

  /**
   * What this node waits for before the lock can work, for the log and /healthz (for example
   * "2 of 3 CP members"), or null when it waits for nothing.
   */
  String waitingFor();

  /**
   * The Vert.x node ids of the other live nodes that may hold a copy (data members of the
   * cluster), by which their replication addresses are named ({@link Addresses}).
   */
  java.util.List<String> otherMemberIds();

  /**
   * This node no longer serves {@code term} of its own accord (it stepped down: a newer term in the
   * group's record, a standby that saw a newer term): the lock, if still held as {@code term}, is let
   * go, and competed for again as before. A node that is not the primary never keeps the lock: the
   * others could never take it.
   */
  void release(long term);

  /** Stops competing; a held lock is released. */
  void stop();

  /** How long a confirmation keeps the lease fresh: less than the lock's session time-to-live. */
  long leaseNanos();

  /**
   * This node holds a seat among the lock's consensus members (always true in unsafe mode): only then
   * does the lock keep its majority when another node fails, so only then is this node a full standby.
   */
  boolean isSeated();

  /** False in Hazelcast's "unsafe mode" (fewer than three CP members): two nodes may both hold it. */
  boolean isSafe();
}
