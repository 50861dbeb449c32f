package io.github.vertxbeanstalkd.store;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Job bodies off the GC heap. A body up to {@link #LARGEST_CLASS_BYTES} goes in the smallest size
 * class that holds it (steps of 8 bytes up to 128, then four classes per doubling, so at most
 * 1/8 of a body's room is slack), each class an {@link ItemPool} of pages of about 1 MiB, or 4 to
 * 8 MiB where pages grow in place (each grown from 16 KiB as it fills). A larger
 * body gets a block of its own. A body is named by a long reference; its length is the caller's to
 * keep. One thread only.
 */
public final class BodyStore {
  /** The reference of an empty body, which takes no room. */
  public static final long EMPTY = -1;
  public static final int LARGEST_CLASS_BYTES = 64 * 1024;
  private static final int PAGE_BYTES_LOG2 = 20;
  /**
   * Where pages grow in place ({@link DirectMemory#growsInPlace()}), 4 to 8 MiB: mostly huge pages
   * when a bulk load fills them.
   */
  private static final int GROWN_IN_PLACE_PAGE_BYTES_LOG2 = 22;
  private static final int LARGE = 0xFFFF;

  private final DirectMemory memory;
  /** log2 of a page's bytes: {@link #PAGE_BYTES_LOG2} less the shrink asked for. */
  private final int pageBytesLog2;
  private final int[] classBytes;
  /** For a length rounded up to 8 bytes, {@code classOfEighths[(length + 7) >>> 3]} is its class. */
  private final byte[] classOfEighths = new byte[(LARGEST_CLASS_BYTES >>> 3) + 1];
  private final ItemPool[] pools;
  private ByteBuffer[] large = new ByteBuffer[16];
  private int[] freeLarge = new int[16];
  private int freeLargeCount;
  private int largeLimit;
  private long largeBytes;

  public BodyStore(DirectMemory memory) {
    this(memory, 0);
  }

  /**
   * A store whose pages hold 2^{@code pageShrinkLog2} times fewer bodies, so that a test reaches with
   * a few thousand jobs the page counts a real backlog reaches with millions.
   */
  BodyStore(DirectMemory memory, int pageShrinkLog2) {
    this.memory = memory;
    this.pageBytesLog2 = (memory.growsInPlace() ? GROWN_IN_PLACE_PAGE_BYTES_LOG2 : PAGE_BYTES_LOG2) - pageShrinkLog2;
    this.classBytes = sizeClasses();
    this.pools = new ItemPool[classBytes.length];
    int c = 0;
    for (int eighths = 0; eighths < classOfEighths.length; eighths++) {
      while (classBytes[c] < eighths * 8) {
        c++;
      }
      classOfEighths[eighths] = (byte) c;
    }
  }

  /** 8, 16, ..., 128, then 160, 192, 224, 256, 320, ... up to 64 KiB. */
  static int[] sizeClasses() {
    int[] sizes = new int[64];
    int n = 0;
    for (int size = 8; size <= 128; size += 8) {
      sizes[n++] = size;
    }
    for (int base = 128; base < LARGEST_CLASS_BYTES; base *= 2) {
      for (int quarter = 1; quarter <= 4; quarter++) {
        sizes[n++] = base + base / 4 * quarter;
      }
    }
    return Arrays.copyOf(sizes, n);
  }

  /** Writes a body's bytes into the room the store made for it. */
  @FunctionalInterface
  public interface Writer {
    /**
     * Puts exactly the body's length of bytes into {@code target} at its position (relative puts).
     * The buffer is the store's own: keep no reference to it.
     */
    void writeTo(ByteBuffer target);
  }

  /** Copies the body in; returns its reference. Throws {@link OutOfMemoryError} when there is no room. */
  public long store(byte[] body) {
    return store(body, 0, body.length);
  }

  public long store(byte[] source, int from, int length) {
    if (length == 0) {
      return EMPTY;
    }
    long ref = allocate(length);
    at(ref).put(offsetOf(ref), source, from, length);
    return ref;
  }

  /**
   * Makes room for a body of {@code length} bytes and lets {@code writer} copy it straight in, with
   * no array in between; returns its reference. Throws {@link OutOfMemoryError} when there is no
   * room, and {@link IllegalStateException}, with nothing kept, when the writer puts another number
   * of bytes.
   */
  public long store(int length, Writer writer) {
    if (length == 0) {
      return EMPTY;
    }
    long ref = allocate(length);
    ByteBuffer target = at(ref);
    int from = offsetOf(ref);
    // The page is shared by many bodies and only ever read with absolute indexes, so its position
    // and limit are free to fence the writer in (no slice, no garbage); they are reset after.
    int written;
    try {
      target.limit(from + length).position(from);
      writer.writeTo(target);
      written = target.position() - from;
    } catch (RuntimeException e) {
      free(ref);
      throw e;
    } finally {
      target.clear();
    }
    if (written != length) {
      free(ref);
      throw new IllegalStateException("the writer put " + written + " of " + length + " bytes");
    }
    return ref;
  }

  private long allocate(int length) {
    if (length > LARGEST_CLASS_BYTES) {
      return ((long) LARGE << 32) | storeLarge(length);
    }
    int c = classOfEighths[(length + 7) >>> 3];
    ItemPool pool = pools[c];
    if (pool == null) {
      pool = pools[c] = new ItemPool(memory, classBytes[c], Math.max(0, pageBytesLog2 - log2Floor(classBytes[c])));
    }
    return ((long) c << 32) | pool.allocate();
  }

  /** The buffer a stored body lies in; see {@link #offsetOf}. */
  private ByteBuffer at(long ref) {
    int c = (int) (ref >>> 32);
    int handle = (int) ref;
    return c == LARGE ? large[handle] : pools[c].page(handle);
  }

  private int offsetOf(long ref) {
    int c = (int) (ref >>> 32);
    return c == LARGE ? 0 : pools[c].offset((int) ref);
  }

  /** Copies {@code length} bytes of the body out into {@code target} from {@code at}. */
  public void read(long ref, int length, byte[] target, int at) {
    if (ref == EMPTY) {
      return;
    }
    int c = (int) (ref >>> 32);
    int handle = (int) ref;
    if (c == LARGE) {
      large[handle].get(0, target, at, length);
    } else {
      ItemPool pool = pools[c];
      pool.page(handle).get(pool.offset(handle), target, at, length);
    }
  }

  public byte[] read(long ref, int length) {
    byte[] body = new byte[length];
    read(ref, length, body, 0);
    return body;
  }

  public void free(long ref) {
    if (ref == EMPTY) {
      return;
    }
    int c = (int) (ref >>> 32);
    int handle = (int) ref;
    if (c == LARGE) {
      largeBytes -= large[handle].capacity();
      memory.free(large[handle]);
      large[handle] = null;
      freeLarge[freeLargeCount++] = handle;
    } else {
      pools[c].free(handle);
    }
  }

  /** The room a body of this length takes in the store. */
  public int roomFor(int length) {
    if (length == 0) {
      return 0;
    }
    return length > LARGEST_CLASS_BYTES ? length : classBytes[classOfEighths[(length + 7) >>> 3]];
  }

  /** Off-heap bytes held for bodies now, slack and empty pages included. */
  public long reservedBytes() {
    return largeBytes + sumOverPools(ItemPool::reservedBytes);
  }

  /** Room in the size classes' pages that holds no body now. */
  public long freeBytes() {
    return sumOverPools(ItemPool::freeBytes);
  }

  private long sumOverPools(java.util.function.ToLongFunction<ItemPool> bytes) {
    long sum = 0;
    for (ItemPool pool : pools) {
      if (pool != null) {
        sum += bytes.applyAsLong(pool);
      }
    }
    return sum;
  }

  /** Gives back pages that stayed empty since the previous call; see {@link ItemPool#trim()}. */
  public long trim() {
    return trim(Long.MAX_VALUE);
  }

  /** As {@link #trim()}, giving back at most about {@code maxBytes}; see {@link ItemPool#trim(long)}. */
  public long trim(long maxBytes) {
    long released = 0;
    for (ItemPool pool : pools) {
      if (pool != null) {
        // Every pool is called, past the budget too, so that each notes its empty pages.
        released += pool.trim(Math.max(0, maxBytes - released));
      }
    }
    return released;
  }

  public void close() {
    for (ItemPool pool : pools) {
      if (pool != null) {
        pool.close();
      }
    }
    for (int i = 0; i < largeLimit; i++) {
      if (large[i] != null) {
        memory.free(large[i]);
        large[i] = null;
      }
    }
    largeBytes = 0;
  }

  private int storeLarge(int length) {
    ByteBuffer block = memory.allocate(length);
    int handle;
    if (freeLargeCount > 0) {
      handle = freeLarge[--freeLargeCount];
    } else {
      if (largeLimit == large.length) {
        large = Arrays.copyOf(large, largeLimit * 2);
        freeLarge = Arrays.copyOf(freeLarge, largeLimit * 2);
      }
      handle = largeLimit++;
    }
    large[handle] = block;
    largeBytes += length;
    return handle;
  }

  private static int log2Floor(int n) {
    return 31 - Integer.numberOfLeadingZeros(n);
  }
}
