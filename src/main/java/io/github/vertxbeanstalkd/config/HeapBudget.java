package io.github.vertxbeanstalkd.config;

/**
 * How the heap is shared among what the server keeps on it beside its own objects: client
 * connections, the engine's tubes, watch lists and sessions, and the bodies and documents on their
 * way to a front. Each share is a cap the server enforces at its door (maxConnections, OUT_OF_MEMORY,
 * a front's flow), so that a flood of any of them is refused instead of ending the process with
 * OutOfMemoryError. Job bodies are not here: they live off the heap, under maxMemory.
 */
public final class HeapBudget {
  /** File descriptors kept for everything but client connections: jars, binlog files, listeners, a cluster. */
  static final int RESERVED_FILE_DESCRIPTORS = 256;

  private HeapBudget() {}

  /**
   * The process's limit of open files less {@link #RESERVED_FILE_DESCRIPTORS}, so that a flood of
   * connections cannot take the descriptors the binlog and the listeners need, and no more than the
   * heap holds ({@link #heapConnections}); at least 16.
   */
  public static int defaultMaxConnections() {
    long limit = Integer.MAX_VALUE;
    if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      limit = unix.getMaxFileDescriptorCount();
    }
    long connections = Math.min(limit - RESERVED_FILE_DESCRIPTORS, heapConnections(Runtime.getRuntime().maxMemory()));
    return (int) Math.max(16, Math.min(Integer.MAX_VALUE, connections));
  }

  /** Heap a connection takes (measured, idle: 9.1-9.2 KiB, most of it Netty's and Vert.x's objects). */
  public static final long CONNECTION_HEAP_BYTES = 10 * 1024;
  /**
   * Heap that is not the connections': the young generation (-Xmn32m in conf/jvm.options) and the
   * server's own objects (about 9 MiB live after start); a quarter more goes to the replies held
   * for clients that do not read them (tcp.HeldReplies).
   */
  static final long HEAP_RESERVED_BYTES = 48L << 20;

  /**
   * The connections a heap of {@code maxHeapBytes} holds beside what it needs anyway (and beside the
   * {@link #heldStateHeapBytes tubes, watches and sessions} and the {@link #copiesInTransitHeapBytes
   * bodies on their way to a front}), so that a flood of connections is refused at the door instead
   * of ending the process with OutOfMemoryError.
   */
  public static long heapConnections(long maxHeapBytes) {
    return Math.max(0, (long) (maxHeapBytes * 0.75) - HEAP_RESERVED_BYTES - heldStateHeapBytes(maxHeapBytes)
        - copiesInTransitHeapBytes(maxHeapBytes)) / CONNECTION_HEAP_BYTES;
  }

  /**
   * The heap the engine's tubes, watch lists and sessions may take, priced as maxMemory prices them
   * (measured: a new tube with its watch entry 982 B live, priced 1,088): an eighth of the heap.
   * They live on the heap while maxMemory is sized by direct memory, so without a cap of their own
   * one connection watching new tubes ended the process with OutOfMemoryError (-Xmx320m: after
   * about 300,000 tubes, with maxMemory admitting 1.3 million); past it, {@code use}, {@code watch}
   * of a new tube and new event-bus sessions answer OUT_OF_MEMORY.
   */
  public static long heldStateHeapBytes(long maxHeapBytes) {
    return maxHeapBytes / 8;
  }

  /**
   * The job bodies the engine may have copied into replies, and the documents it may have made
   * for them, that a front has not yet received: a sixteenth of the heap. Past it, that front's
   * sessions wait before a reserve, peek, stats or list-tubes until the front has them
   * (engine.FrontFlow); without it, 64 clients pipelining peeks of a 64 KiB job had hundreds of
   * MiB copied in one engine turn and ended a server with {@code -Xmx128m}, and 2,200 pipelining
   * list-tubes ended one with conf/jvm.options.
   */
  public static long copiesInTransitHeapBytes(long maxHeapBytes) {
    return maxHeapBytes / 16;
  }
}
