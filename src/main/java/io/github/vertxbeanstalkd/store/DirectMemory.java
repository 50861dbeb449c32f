package io.github.vertxbeanstalkd.store;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.netty.util.internal.PlatformDependent;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The job store's off-heap memory: every block it takes and gives back, counted to the byte. Blocks
 * are freed at once (not when the collector finds them), so a drained store gives memory back to
 * the operating system. The store keeps under its own limit, so that it refuses at once instead of
 * reaching the JVM's direct-memory limit, where every allocation first waits for a full collection
 * (about half a second) and the sockets' buffers would fail too. Where the JVM allows it, the
 * blocks for jobs are not zeroed ahead (see {@link UntouchedBlocks}). One thread only.
 */
public final class DirectMemory {
  /** The store's default share of the JVM's direct memory; the rest is for the sockets' buffers. */
  static final double DEFAULT_SHARE = 0.75;
  private final long limitBytes;
  /** Blocks come from {@link UntouchedBlocks}, not {@link ByteBuffer#allocateDirect}. */
  private final boolean isUntouched;
  private long reservedBytes;
  private long blocks;

  /** Memory limited to {@link #DEFAULT_SHARE} of the JVM's direct memory. */
  public DirectMemory() {
    this((long) (maxDirectMemory() * DEFAULT_SHARE));
  }

  public DirectMemory(long limitBytes) {
    this(limitBytes, UntouchedBlocks.isAvailable());
  }

  DirectMemory(long limitBytes, boolean isUntouched) {
    if (isUntouched && !UntouchedBlocks.isAvailable()) {
      throw new IllegalStateException("untouched blocks need --add-opens java.base/java.nio=ALL-UNNAMED");
    }
    this.limitBytes = limitBytes;
    this.isUntouched = isUntouched;
  }

  /**
   * True when job blocks are not zeroed ahead: their pages are faulted in by the writes that fill
   * them, not all at once in the engine's turn that makes a block.
   */
  public boolean isUntouched() {
    return isUntouched;
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
    if (reservedBytes + bytes > limitBytes) {
      throw new OutOfMemoryError("job store full: " + reservedBytes + " + " + bytes + " bytes > limit " + limitBytes);
    }
    return block(bytes, false);
  }

  /**
   * A zeroed block even past the limit: for the index and heaps, which grow with jobs already
   * admitted (a few bytes each, inside the share left over), so that moving a job never fails half-way.
   */
  public ByteBuffer allocateOverLimit(int bytes) {
    return block(bytes, true);
  }

  private ByteBuffer block(int bytes, boolean isZeroed) {
    ByteBuffer block;
    if (isUntouched) {
      block = UntouchedBlocks.allocate(bytes);
      if (isZeroed) {
        UntouchedBlocks.zero(block);
      }
    } else {
      block = ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
    }
    reservedBytes += bytes;
    blocks++;
    return block;
  }

  /** Gives the block back now; it must not be used again. */
  public void free(ByteBuffer block) {
    reservedBytes -= block.capacity();
    blocks--;
    if (isUntouched) {
      UntouchedBlocks.free(block);
    } else {
      PlatformDependent.freeDirectBuffer(block);
    }
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
