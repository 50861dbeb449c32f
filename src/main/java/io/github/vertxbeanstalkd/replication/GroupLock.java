package io.github.vertxbeanstalkd.replication;

/**
 * The replication group's leader lock (REPLICATION.md "Election and fencing"): the node that holds
 * it is the primary, and its fencing token is the term. Implementations block, so they run on a
 * thread of their own, never on an event loop.
 */
interface GroupLock {
  /** Hears what becomes of the lock, on the lock's own thread. */
  interface Listener {
    /** This node holds the lock as {@code term}; it was confirmed at {@code confirmedAtNanos} (System.nanoTime). */
    void acquired(long term, long confirmedAtNanos);

    /** Still held: confirmed at {@code confirmedAtNanos}. */
    void confirmed(long term, long confirmedAtNanos);

    /** Lost (its CP session was closed, or the CP group cannot be reached): step down at once. */
    void lost(long term, String why);
  }

  /**
   * Starts competing for the lock, for good: acquired, confirmed every so often, and lost are told.
   * Before each try the lock asks {@code mayCompete}: a node that could lose acknowledged changes
   * by taking over (it is not caught up, or another standby holds more) lets the lock be.
   */
  void start(Listener listener, java.util.function.BooleanSupplier mayCompete);

  /**
   * The Vert.x node ids of the other live nodes that may hold a copy (data members of the
   * cluster), by which their replication addresses are named ({@link Addresses}).
   */
  java.util.List<String> otherMemberIds();

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
