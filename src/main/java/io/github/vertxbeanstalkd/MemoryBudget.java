package io.github.vertxbeanstalkd;

import io.github.vertxbeanstalkd.engine.QueueEngine;
import io.github.vertxbeanstalkd.store.DirectMemory;
import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The process's memory budget as the JVM was started: the heap's and direct memory's limits, the
 * job store's share and maxMemory, and the JVM's own fixed part; what the start-up log states and the
 * README's sizing rule adds up.
 */
record MemoryBudget(long heapMaxBytes, long directMaxBytes, long storeLimitBytes, long maxMemoryBytes,
    long machineBytes, boolean isHeapChosen) {
  /**
   * RSS beside the heap and direct memory, measured with conf/jvm.options (hostile_memory.py --nmt):
   * about 90 MiB at start, and 10-17 MiB more once a random stream has made the JIT compile what it
   * reaches (code, the compilers' arenas, class metadata) and libc keeps what they freed. The rest is
   * the class-data archive, symbols, thread stacks, the collector's tables and the JVM's own code.
   */
  static final long FIXED_OVERHEAD_BYTES = 112L << 20;

  static MemoryBudget of(long configuredMaxMemoryBytes) {
    long store = new DirectMemory().limitBytes();
    long maxMemory = configuredMaxMemoryBytes > 0
        ? configuredMaxMemoryBytes : (long) (store * QueueEngine.DEFAULT_MAX_MEMORY_SHARE);
    return new MemoryBudget(maxHeapSize(), DirectMemory.maxDirectMemory(), store, maxMemory, totalMemoryBytes(),
        isMaxHeapSizeSet());
  }

  /** True when -Xmx (or -XX:MaxHeapSize) was given, not worked out by the JVM from the machine. */
  private static boolean isMaxHeapSizeSet() {
    try {
      return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption("MaxHeapSize")
          .getOrigin() == VMOption.Origin.VM_CREATION;
    } catch (RuntimeException notHotSpot) {
      return true;
    }
  }

  /** -Xmx as set (Runtime.maxMemory() leaves out a survivor space, which is memory all the same). */
  private static long maxHeapSize() {
    try {
      return Long.parseLong(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
          .getVMOption("MaxHeapSize").getValue());
    } catch (RuntimeException notHotSpot) {
      return Runtime.getRuntime().maxMemory();
    }
  }

  private static long totalMemoryBytes() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    // The container's limit where there is one (the JDK reads the cgroup), else the machine's memory.
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getTotalMemorySize() : 0;
  }

  /** The most the process's RSS reaches, whatever clients send: the three bounds added up. */
  long rssBoundBytes() {
    return heapMaxBytes + directMaxBytes + FIXED_OVERHEAD_BYTES;
  }

  /** True when the heap's limit is the JVM's default (a quarter of the machine), not a chosen one. */
  boolean isHeapUnbounded() {
    return !isHeapChosen;
  }

  String describe() {
    return String.format("memory budget: heap at most %d MiB, direct memory at most %d MiB (the job store up to %d "
            + "MiB, maxMemory %d MiB; the sockets' buffers the rest), JVM and code about %d MiB: RSS at most about "
            + "%d MiB (memory here: %d MiB)", mib(heapMaxBytes), mib(directMaxBytes), mib(storeLimitBytes),
        mib(maxMemoryBytes), mib(FIXED_OVERHEAD_BYTES), mib(rssBoundBytes()), mib(machineBytes));
  }

  private static long mib(long bytes) {
    return bytes >> 20;
  }
}
