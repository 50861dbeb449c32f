package io.github.vertxbeanstalkd.engine;

/**
 * maxMemory: what the queue may hold, in bytes. Job data is counted exactly as the job store holds
 * it (each record, each body at its size class, the id index and the heaps; not the free room in
 * pages, which the next jobs fill first); what clients create besides jobs is
 * counted at a fixed price each, so that a client creating tubes, watching them or opening
 * event-bus sessions runs into the same cap as one putting jobs.
 */
final class MemoryCap {
  /** A tube's objects and its two heaps' first arrays. */
  static final long TUBE_BYTES = 1024;
  /** One entry of a watch list. */
  static final long WATCH_BYTES = 64;
  /** A session's objects: a connection's or an event-bus session's. */
  static final long SESSION_BYTES = 512;

  private final JobTable table;
  private final Tubes tubes;
  private final Sessions sessions;
  private long maxBytes = Long.MAX_VALUE;
  private long maxHeldBytes = Long.MAX_VALUE;

  MemoryCap(JobTable table, Tubes tubes, Sessions sessions) {
    this.table = table;
    this.tubes = tubes;
    this.sessions = sessions;
  }

  long maxBytes() {
    return maxBytes;
  }

  /**
   * The cap: {@code bytes}, or {@code defaultShare} of the store's limit when 0. Throws
   * IllegalArgumentException when {@code bytes} is more than the store can hold.
   */
  void limit(long bytes, long storeLimit, double defaultShare) {
    if (bytes > storeLimit) {
      throw new IllegalArgumentException("config: 'maxMemory' is " + bytes + " bytes, more than the job store "
          + "can hold here (" + storeLimit + " bytes, 3/4 of the JVM's direct memory); raise -XX:MaxDirectMemorySize"
          + " or lower maxMemory");
    }
    maxBytes = bytes > 0 ? bytes : (long) (storeLimit * defaultShare);
  }

  /**
   * The cap on the price of every tube, watch and session alone: they live on the heap, which
   * maxMemory (sized by direct memory) does not bound.
   */
  void limitHeld(long bytes) {
    maxHeldBytes = bytes;
  }

  /**
   * True when {@code moreBytes} of tubes, watches or sessions still fit under both caps: maxMemory
   * and the heap's share for them.
   */
  boolean admitsHeld(long moreBytes) {
    return pricedBytes() + moreBytes <= maxHeldBytes && admits(moreBytes);
  }

  /** Job data plus the price of every tube, watch and session. */
  long usedBytes() {
    return table.usedBytes() + pricedBytes();
  }

  /**
   * True when {@code moreBytes} still fit under the cap. The store's reserved bytes bound its used
   * bytes from above, so away from the cap a put is admitted without summing the free room of every
   * body size class.
   */
  boolean admits(long moreBytes) {
    long priced = pricedBytes() + moreBytes;
    return table.reservedBytes() + priced <= maxBytes || table.usedBytes() + priced <= maxBytes;
  }

  private long pricedBytes() {
    return tubes.size() * TUBE_BYTES + tubes.watchCount() * WATCH_BYTES + sessions.count() * SESSION_BYTES;
  }
}
