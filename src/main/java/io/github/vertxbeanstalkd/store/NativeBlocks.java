package io.github.vertxbeanstalkd.store;

import java.lang.reflect.InvocationTargetException;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where {@link DirectMemory} takes its blocks from and gives them back to, through supported APIs
 * only, chosen once per JVM ({@link #chosen()}): {@link ForeignBlocks} (malloc, calloc and free
 * called through the Foreign Function & Memory API) on Java 22 and later, else {@link
 * DirectBufferBlocks} ({@link ByteBuffer#allocateDirect}, freed through its cleaner). Every block is
 * a direct ByteBuffer in native byte order whose memory goes back to the system as soon as {@link
 * #free} is called.
 */
abstract class NativeBlocks {
  private static final Logger log = LoggerFactory.getLogger(DirectMemory.class);

  /** Picked at class initialisation, so the log line is written once per JVM. */
  private static final class Chosen {
    static final NativeBlocks BLOCKS = choose();
  }

  /** The implementation this JVM uses. */
  static NativeBlocks chosen() {
    return Chosen.BLOCKS;
  }

  private static NativeBlocks choose() {
    int feature = Runtime.version().feature();
    NativeBlocks blocks = null;
    if (feature >= ForeignBlocks.FIRST_FEATURE) {
      try {
        blocks = new ForeignBlocks();
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        // Linking through reflection wraps what the JVM threw (IllegalCallerException when native
        // access is denied) in an InvocationTargetException.
        Throwable unavailable = e instanceof InvocationTargetException && e.getCause() != null ? e.getCause() : e;
        log.warn("job store memory: the Foreign Function & Memory API is not usable here ({}); falling back to "
            + "ByteBuffer.allocateDirect (pages zeroed ahead). Start with --enable-native-access=ALL-UNNAMED "
            + "(conf/jvm.options) or from the jar's manifest", unavailable.toString());
      }
    }
    if (blocks == null) {
      blocks = new DirectBufferBlocks();
    }
    log.info("job store memory on Java {}: {}", feature, blocks.description());
    return blocks;
  }

  /** What the log says of this implementation. */
  abstract String description();

  /**
   * True when {@link #allocate} does not zero its blocks: their pages are faulted in by the writes
   * that fill them, not all at once in the engine's turn that makes a block.
   */
  abstract boolean isUntouched();

  /**
   * True when the blocks are counted in java.nio's direct memory (the "direct" buffer pool), and so
   * against -XX:MaxDirectMemorySize itself, besides the store's own limit.
   */
  abstract boolean isCountedByJavaNio();

  /**
   * A block of {@code bytes} holding whatever the memory held (zeros when not {@link
   * #isUntouched()}). Throws {@link OutOfMemoryError} when the system (or the JVM's direct-memory
   * limit, where {@link #isCountedByJavaNio()}) has no room.
   */
  abstract ByteBuffer allocate(int bytes);

  /** A block of {@code bytes} of zeros. */
  abstract ByteBuffer allocateZeroed(int bytes);

  /**
   * True when {@link #allocateGrowable} is available: a block whose address space is reserved
   * whole, so that it grows in place by being written further, with no copy.
   */
  boolean growsInPlace() {
    return false;
  }

  /**
   * A block of {@code maxBytes} of address space (its capacity) whose memory is taken only where it
   * is written; with {@code inHugePages}, backed by huge pages where the system allows. Only where
   * {@link #growsInPlace()}; freed with {@link #free}.
   */
  ByteBuffer allocateGrowable(int maxBytes, boolean inHugePages) {
    throw new UnsupportedOperationException("blocks do not grow in place here");
  }

  /** As {@link #populate(ByteBuffer)}, for the block's bytes {@code [from, to)} only. */
  void populate(ByteBuffer block, int from, int to) {}

  /**
   * Makes the block's pages present now, as writes would, in one call: where an implementation
   * cannot, or its blocks are zeroed (touched) already, nothing happens.
   */
  void populate(ByteBuffer block) {
    populate(block, 0, block.capacity());
  }

  /** Gives a block from this implementation back at once; it must not be used again. */
  abstract void free(ByteBuffer block);
}
