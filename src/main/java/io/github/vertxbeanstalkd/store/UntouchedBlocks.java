package io.github.vertxbeanstalkd.store;

import io.netty.util.internal.PlatformDependent;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Direct blocks that are not zeroed: malloc'd, wrapped in a ByteBuffer, and counted against the
 * JVM's direct-memory limit (-XX:MaxDirectMemorySize) exactly as {@link ByteBuffer#allocateDirect}
 * counts its own. {@code allocateDirect} writes zeros over a whole block before returning it, and
 * every 4 KiB it writes is a first-touch page fault: a job page of 1.5 MiB cost the engine's turn
 * that made it 1.4-3.3 ms here (a body page the same again), the put c=50 p99.9 of 9 ms. A block
 * from here costs a malloc (12 us for 1 MiB); its pages are faulted in by the writes that fill it,
 * a few per turn, as beanstalkd's malloc'd jobs are.
 *
 * <p>Needs {@code --add-opens java.base/java.nio=ALL-UNNAMED} (conf/jvm.options) to reach
 * DirectByteBuffer's (address, capacity) constructor and java.nio.Bits' counter; without it
 * {@link #isAvailable()} is false and {@link DirectMemory} makes zeroed blocks as before. Free a
 * block from here only with {@link #free}: it has no cleaner.
 */
final class UntouchedBlocks {
  private static final MethodHandle WRAP;
  private static final MethodHandle RESERVE;
  private static final MethodHandle UNRESERVE;

  static {
    MethodHandle wrap = null;
    MethodHandle reserve = null;
    MethodHandle unreserve = null;
    try {
      if (PlatformDependent.hasUnsafe()) {
        Class<?> direct = Class.forName("java.nio.DirectByteBuffer");
        MethodHandles.Lookup nio = MethodHandles.privateLookupIn(direct, MethodHandles.lookup());
        wrap = wrapper(nio, direct);
        Class<?> bits = Class.forName("java.nio.Bits");
        MethodHandles.Lookup bitsLookup = MethodHandles.privateLookupIn(bits, MethodHandles.lookup());
        MethodType counter = MethodType.methodType(void.class, long.class, long.class);
        reserve = bitsLookup.findStatic(bits, "reserveMemory", counter);
        unreserve = bitsLookup.findStatic(bits, "unreserveMemory", counter);
      }
    } catch (ReflectiveOperationException | RuntimeException notOpen) {
      wrap = null;
    }
    WRAP = wrap;
    RESERVE = reserve;
    UNRESERVE = unreserve;
  }

  private UntouchedBlocks() {
  }

  /** DirectByteBuffer(long address, int capacity) on Java 17, (long, long) on later ones. */
  private static MethodHandle wrapper(MethodHandles.Lookup nio, Class<?> direct) throws ReflectiveOperationException {
    MethodType toBuffer = MethodType.methodType(ByteBuffer.class, long.class, int.class);
    try {
      return nio.findConstructor(direct, MethodType.methodType(void.class, long.class, int.class)).asType(toBuffer);
    } catch (NoSuchMethodException later) {
      return nio.findConstructor(direct, MethodType.methodType(void.class, long.class, long.class))
          .asType(MethodType.methodType(ByteBuffer.class, long.class, long.class))
          .asType(toBuffer);
    }
  }

  /** True when the JVM lets this class make blocks (java.nio is open to it). */
  static boolean isAvailable() {
    return WRAP != null;
  }

  /**
   * A block of {@code bytes} whose contents are whatever the memory held, in native byte order.
   * Throws {@link OutOfMemoryError} past -XX:MaxDirectMemorySize (as allocateDirect does) or when
   * malloc fails.
   */
  static ByteBuffer allocate(int bytes) {
    count(RESERVE, bytes);
    long address;
    try {
      address = PlatformDependent.allocateMemory(Math.max(1, bytes));
    } catch (OutOfMemoryError e) {
      count(UNRESERVE, bytes);
      throw e;
    }
    try {
      return ((ByteBuffer) WRAP.invokeExact(address, bytes)).order(ByteOrder.nativeOrder());
    } catch (Throwable e) {
      PlatformDependent.freeMemory(address);
      count(UNRESERVE, bytes);
      throw new IllegalStateException("cannot wrap a direct block", e);
    }
  }

  /** Zeroes a block from {@link #allocate} (the index and the heaps read what they never wrote as empty). */
  static void zero(ByteBuffer block) {
    PlatformDependent.setMemory(PlatformDependent.directBufferAddress(block), block.capacity(), (byte) 0);
  }

  /** Gives a block from {@link #allocate} back at once; it must not be used again. */
  static void free(ByteBuffer block) {
    PlatformDependent.freeMemory(PlatformDependent.directBufferAddress(block));
    count(UNRESERVE, block.capacity());
  }

  /** Adds a block to java.nio's direct-memory count ({@link #RESERVE}) or takes it off ({@link #UNRESERVE}). */
  private static void count(MethodHandle counter, long bytes) {
    try {
      counter.invokeExact(bytes, bytes);
    } catch (OutOfMemoryError | RuntimeException e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }
}
