package io.github.vertxbeanstalkd.store;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;

/**
 * The job store's off-heap memory: every block it takes and gives back, counted to the byte. Blocks
 * are freed at once (not when the collector finds them), so a drained store gives memory back to
 * the operating system. The store keeps under its own limit, so that it refuses at once instead of
 * reaching the JVM's direct-memory limit, where every allocation first waits for a full collection
 * (about half a second) and the sockets' buffers would fail too. The blocks come from {@link
 * NativeBlocks#chosen()}: on Java 22 and later malloc'd through the Foreign Function &amp; Memory API,
 * the blocks for jobs not zeroed ahead ({@link ForeignBlocks}); before, {@link
 * ByteBuffer#allocateDirect} ({@link DirectBufferBlocks}). One thread only.
 */
public final class DirectMemory {
  /** The store's default share of the JVM's direct memory; the rest is for the sockets' buffers. */
  static final double DEFAULT_SHARE = 0.75;
  private final long limitBytes;
  private final NativeBlocks source;
  /** Blocks at least this large are populated when {@link #populateNewBlocks} asks: job pages, not small arrays. */
  static final int POPULATED_BLOCK_BYTES = 64 * 1024;
  private long reservedBytes;
  private long blocks;
  private boolean isPopulating;

  /** Memory limited to {@link #DEFAULT_SHARE} of the JVM's direct memory. */
  public DirectMemory() {
    this((long) (maxDirectMemory() * DEFAULT_SHARE));
  }

  public DirectMemory(long limitBytes) {
    this(limitBytes, NativeBlocks.chosen());
  }

  DirectMemory(long limitBytes, NativeBlocks source) {
    this.limitBytes = limitBytes;
    this.source = source;
  }

  /**
   * True when job blocks are not zeroed ahead: their pages are faulted in by the writes that fill
   * them, not all at once in the engine's turn that makes a block.
   */
  public boolean isUntouched() {
    return source.isUntouched();
  }

  /** Where the blocks come from. */
  NativeBlocks source() {
    return source;
  }

  /**
   * The JVM's direct-memory limit: -XX:MaxDirectMemorySize, or the heap's maximum when that is
   * not set (as java.nio reads it).
   */
  public static long maxDirectMemory() {
    try {
      HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      long set = Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
      return set > 0 ? set : Runtime.getRuntime().maxMemory();
    } catch (RuntimeException notHotSpot) {
      return Runtime.getRuntime().maxMemory();
    }
  }

  public long limitBytes() {
    return limitBytes;
  }

  /**
   * A block of {@code bytes} in native byte order, holding whatever bytes the memory held (zeros
   * when it is not {@link #isUntouched()}): write before reading. Throws {@link OutOfMemoryError}
   * when it would pass the limit or the system has no memory left.
   */
  public ByteBuffer allocate(int bytes) {
    requireRoom(bytes);
    return block(bytes, false);
  }

  /** Throws {@link OutOfMemoryError} when {@code bytes} more would pass the limit. */
  private void requireRoom(long bytes) {
    if (reservedBytes + bytes > limitBytes) {
      throw new OutOfMemoryError("job store full: " + reservedBytes + " + " + bytes + " bytes > limit " + limitBytes);
    }
  }

  /**
   * A zeroed block even past the limit: for the index and heaps, which grow with jobs already
   * admitted (a few bytes each, inside the share left over), so that moving a job never fails half-way.
   */
  public ByteBuffer allocateOverLimit(int bytes) {
    return block(bytes, true);
  }

  /**
   * While true, a large new block has its pages made present at once, in one call to the system
   * ({@link NativeBlocks#populate}), instead of faulting in one by one as the writes that fill it
   * come: for a bulk load with no client waiting (a standby applying its primary's jobs), where a
   * page fault per 4 KiB costs many times the one call (measured here: 256 MiB took 0.1 s of
   * system time populated, 0.5 s faulted by writes, and 2.1 s of wall time).
   */
  public void populateNewBlocks(boolean populates) {
    isPopulating = populates;
  }

  private ByteBuffer block(int bytes, boolean isZeroed) {
    ByteBuffer block = isZeroed ? source.allocateZeroed(bytes) : source.allocate(bytes);
    if (isPopulating && bytes >= POPULATED_BLOCK_BYTES) {
      source.populate(block);
    }
    reservedBytes += bytes;
    blocks++;
    return block;
  }

  /**
   * True when {@link #allocateGrowable} reserves a block's whole room at once and it grows in place
   * ({@link #grow}), with no copy: then a job page may be large, since growing it costs nothing.
   */
  public boolean growsInPlace() {
    return source.growsInPlace();
  }

  /**
   * A block counted as {@code bytes} whose capacity is {@code maxBytes}: it grows in place through
   * {@link #grow}, up to its capacity, and memory is taken only where it is written (in a bulk load,
   * {@link #populateNewBlocks}, its counted part at once and in huge pages). Only where {@link
   * #growsInPlace()}. Throws {@link OutOfMemoryError} when {@code bytes} would pass the limit.
   */
  public ByteBuffer allocateGrowable(int bytes, int maxBytes) {
    requireRoom(bytes);
    ByteBuffer block = source.allocateGrowable(maxBytes, isPopulating);
    if (isPopulating) {
      source.populate(block, 0, bytes);
    }
    reservedBytes += bytes;
    blocks++;
    return block;
  }

  /**
   * Counts a growable block's bytes {@code [fromBytes, toBytes)} as held now. Throws {@link
   * OutOfMemoryError}, counting nothing, when they would pass the limit.
   */
  public void grow(ByteBuffer block, int fromBytes, int toBytes) {
    requireRoom(toBytes - fromBytes);
    if (isPopulating) {
      source.populate(block, fromBytes, toBytes);
    }
    reservedBytes += toBytes - fromBytes;
  }

  /** Gives the block back now; it must not be used again. */
  public void free(ByteBuffer block) {
    free(block, block.capacity());
  }

  /** Gives back a block counted as {@code countedBytes} (a growable block's, less than its capacity). */
  public void free(ByteBuffer block, long countedBytes) {
    reservedBytes -= countedBytes;
    blocks--;
    source.free(block);
  }

  /** Bytes held in blocks now. */
  public long reservedBytes() {
    return reservedBytes;
  }

  /** Blocks held now. */
  public long blocks() {
    return blocks;
  }
}
