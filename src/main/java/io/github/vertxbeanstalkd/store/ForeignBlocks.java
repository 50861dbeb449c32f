package io.github.vertxbeanstalkd.store;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Blocks from the C library's malloc (job blocks, not zeroed) and calloc (zeroed blocks), given back
 * with free, all called through the Foreign Function &amp; Memory API of Java 22 and later
 * ({@code java.lang.foreign}: a downcall handle per function from {@code Linker.nativeLinker()}) and
 * wrapped as {@code MemorySegment.ofAddress(address).reinterpret(bytes).asByteBuffer()}.
 *
 * <p>Not zeroing matters: {@code allocateDirect} (and {@code Arena.allocate}) write zeros over a
 * whole block before returning it, and every 4 KiB written is a first-touch page fault: a job page
 * of 1.5 MiB cost the engine's turn that made it 1.4-3.3 ms here, the put c=50 p99.9 of 9 ms. A
 * malloc of 1 MiB takes about 12 us; its pages fault in as the writes that fill it come, a few per
 * turn, as beanstalkd's malloc'd jobs do. calloc zeroes only what is not fresh from the system (a
 * large block comes from mmap, already zeros, untouched). Where no client waits (a standby applying
 * its primary's jobs, {@link DirectMemory#populateNewBlocks}), a block's pages are made present in
 * one madvise(MADV_POPULATE_WRITE) call instead, several times cheaper than a fault per page.
 *
 * <p>On Linux (x86-64 and AArch64) blocks also grow in place ({@link #allocateGrowable}): a job
 * page's whole address space is mapped at once (mmap, anonymous, aligned to 2 MiB), and memory is
 * taken only where items are written, so a page grows as it fills with no copy. A copy wrote the
 * whole block into memory never written, a fault per 4 KiB in the one turn that grew it. A bulk
 * load's pages (a replay, a standby's copy) ask the kernel for transparent huge pages
 * (madvise(MADV_HUGEPAGE)): writing 512 MiB of fresh memory took 1,536-1,563 ms in 4 KiB pages
 * (131,000 faults) and 45 ms in huge pages (259 faults) here. A primary's pages stay in 4 KiB
 * pages, where one 2 MiB fault would be one long stall inside a client's turn.
 *
 * <p>The build targets Java 17, where {@code java.lang.foreign} does not exist, so every type of it
 * is reached by reflection, once, here; what is called afterwards are method handles of primitive
 * and {@link ByteBuffer} types only: malloc (long)long, calloc (long, long)long, free (long)void.
 * Pointers and size_t are passed as Java longs, which needs a 64-bit address (checked). Linking
 * and {@code reinterpret} are restricted methods: the jar's manifest has {@code
 * Enable-Native-Access: ALL-UNNAMED} and conf/jvm.options {@code --enable-native-access=ALL-UNNAMED};
 * without either, Java 22-25 print a warning and go on, and a JVM that denies native access makes
 * the constructor throw (then {@link DirectBufferBlocks} are used).
 *
 * <p>These blocks are outside java.nio's count of direct memory: -XX:MaxDirectMemorySize bounds
 * them only through {@link DirectMemory}'s own limit (3/4 of it).
 */
final class ForeignBlocks extends NativeBlocks {
  /** The Java release whose java.lang.foreign is final (JEP 454). */
  static final int FIRST_FEATURE = 22;

  private final MethodHandle malloc;
  private final MethodHandle calloc;
  private final MethodHandle free;
  /** (long address, long bytes, int advice)int: madvise. */
  private final MethodHandle madvise;
  /**
   * Linux's MADV_POPULATE_WRITE (5.14 and later): the range's pages are faulted in for writing,
   * all in one call. Any other system (EINVAL) turns {@link #populate} off.
   */
  private static final int MADV_POPULATE_WRITE = 23;
  private static final long PAGE_BYTES = 4096;
  private static final long HUGE_PAGE_BYTES = 2 << 20;
  private static final int PROT_READ_WRITE = 0x1 | 0x2;
  /** MAP_PRIVATE | MAP_ANONYMOUS, as Linux defines them on x86-64 and AArch64. */
  private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
  private static final long MAP_FAILED = -1;
  private static final int MADV_HUGEPAGE = 14;
  /** (long address, long bytes, int prot, int flags, int fd, long offset)long: mmap; null where blocks do not grow in place. */
  private final MethodHandle mmap;
  /** (long address, long bytes)int: munmap. */
  private final MethodHandle munmap;
  /** The addresses of the blocks mapped on their own, which free unmaps. One thread at a time, as the store. */
  private final Set<Long> mappedBlocks = new HashSet<>();
  private volatile boolean isPopulateAvailable;
  /** (long address, long bytes)ByteBuffer. */
  private final MethodHandle wrap;
  /** (ByteBuffer)long: the address of the buffer's position. */
  private final MethodHandle addressAtPosition;

  /** Throws when this JVM has no usable java.lang.foreign (before 22, or native access denied). */
  ForeignBlocks() throws ReflectiveOperationException {
    Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
    Class<?> optionClass = Class.forName("java.lang.foreign.Linker$Option");
    Class<?> symbolLookupClass = Class.forName("java.lang.foreign.SymbolLookup");
    Class<?> layoutClass = Class.forName("java.lang.foreign.MemoryLayout");
    Class<?> valueLayoutClass = Class.forName("java.lang.foreign.ValueLayout");
    Class<?> descriptorClass = Class.forName("java.lang.foreign.FunctionDescriptor");
    Class<?> segmentClass = Class.forName("java.lang.foreign.MemorySegment");

    Object address = valueLayoutClass.getField("ADDRESS").get(null);
    long addressBytes = (long) layoutClass.getMethod("byteSize").invoke(address);
    if (addressBytes != Long.BYTES) {
      throw new UnsupportedOperationException("addresses of " + addressBytes + " bytes");
    }
    Object javaLong = valueLayoutClass.getField("JAVA_LONG").get(null);
    Object linker = linkerClass.getMethod("nativeLinker").invoke(null);
    Object libc = linkerClass.getMethod("defaultLookup").invoke(linker);
    Method find = symbolLookupClass.getMethod("find", String.class);
    Method of = descriptorClass.getMethod("of", layoutClass, layoutClass.arrayType());
    Method ofVoid = descriptorClass.getMethod("ofVoid", layoutClass.arrayType());
    Method downcallHandle = linkerClass.getMethod("downcallHandle", segmentClass, descriptorClass,
        optionClass.arrayType());
    Object noOptions = Array.newInstance(optionClass, 0);

    Object longToLong = of.invoke(null, javaLong, layouts(layoutClass, javaLong));
    Object longLongToLong = of.invoke(null, javaLong, layouts(layoutClass, javaLong, javaLong));
    Object longToVoid = ofVoid.invoke(null, layouts(layoutClass, javaLong));
    malloc = (MethodHandle) downcallHandle.invoke(linker, symbol(find, libc, "malloc"), longToLong, noOptions);
    calloc = (MethodHandle) downcallHandle.invoke(linker, symbol(find, libc, "calloc"), longLongToLong, noOptions);
    free = (MethodHandle) downcallHandle.invoke(linker, symbol(find, libc, "free"), longToVoid, noOptions);
    Object javaInt = valueLayoutClass.getField("JAVA_INT").get(null);
    Object longLongIntToInt = of.invoke(null, javaInt, layouts(layoutClass, javaLong, javaLong, javaInt));
    Optional<?> madviseSymbol = (Optional<?>) find.invoke(libc, "madvise");
    madvise = madviseSymbol.isEmpty() ? null
        : (MethodHandle) downcallHandle.invoke(linker, madviseSymbol.get(), longLongIntToInt, noOptions);
    boolean isLinux = System.getProperty("os.name", "").startsWith("Linux");
    isPopulateAvailable = madvise != null && isLinux;
    String arch = System.getProperty("os.arch", "");
    Optional<?> mmapSymbol = (Optional<?>) find.invoke(libc, "mmap");
    Optional<?> munmapSymbol = (Optional<?>) find.invoke(libc, "munmap");
    if (isLinux && madvise != null && (arch.equals("amd64") || arch.equals("aarch64"))
        && mmapSymbol.isPresent() && munmapSymbol.isPresent()) {
      Object mmapType = of.invoke(null, javaLong, layouts(layoutClass, javaLong, javaLong, javaInt, javaInt, javaInt, javaLong));
      mmap = (MethodHandle) downcallHandle.invoke(linker, mmapSymbol.get(), mmapType, noOptions);
      Object longLongToInt = of.invoke(null, javaInt, layouts(layoutClass, javaLong, javaLong));
      munmap = (MethodHandle) downcallHandle.invoke(linker, munmapSymbol.get(), longLongToInt, noOptions);
    } else {
      mmap = null;
      munmap = null;
    }

    MethodHandles.Lookup lookup = MethodHandles.lookup();
    MethodHandle ofAddress = lookup.findStatic(segmentClass, "ofAddress", MethodType.methodType(segmentClass, long.class));
    MethodHandle reinterpret = lookup.findVirtual(segmentClass, "reinterpret",
        MethodType.methodType(segmentClass, long.class));
    MethodHandle asByteBuffer = lookup.findVirtual(segmentClass, "asByteBuffer", MethodType.methodType(ByteBuffer.class));
    wrap = MethodHandles.filterReturnValue(MethodHandles.filterArguments(reinterpret, 0, ofAddress), asByteBuffer);
    MethodHandle ofBuffer = lookup.findStatic(segmentClass, "ofBuffer", MethodType.methodType(segmentClass, Buffer.class));
    MethodHandle segmentAddress = lookup.findVirtual(segmentClass, "address", MethodType.methodType(long.class));
    addressAtPosition = MethodHandles.filterReturnValue(ofBuffer, segmentAddress)
        .asType(MethodType.methodType(long.class, ByteBuffer.class));

    // One block made and given back now, so that a JVM denying native access (reinterpret is
    // restricted too) is found here, at start, not on the first put.
    free(allocateZeroed(8));
    if (mmap != null) {
      free(allocateGrowable((int) HUGE_PAGE_BYTES, true));
    }
  }

  private static Object layouts(Class<?> layoutClass, Object... layouts) {
    Object array = Array.newInstance(layoutClass, layouts.length);
    for (int i = 0; i < layouts.length; i++) {
      Array.set(array, i, layouts[i]);
    }
    return array;
  }

  private static Object symbol(Method find, Object lookup, String name) throws ReflectiveOperationException {
    Optional<?> symbol = (Optional<?>) find.invoke(lookup, name);
    return symbol.orElseThrow(() -> new UnsupportedOperationException("no " + name + " in the C library"));
  }

  @Override
  String description() {
    return "malloc/calloc/free through the Foreign Function & Memory API; job pages are not zeroed ahead"
        + (mmap != null ? " and grow in place (mmap), a bulk load's in transparent huge pages" : "");
  }

  @Override
  boolean isUntouched() {
    return true;
  }

  @Override
  boolean isCountedByJavaNio() {
    return false;
  }

  @Override
  ByteBuffer allocate(int bytes) {
    long address;
    try {
      address = (long) malloc.invokeExact((long) Math.max(1, bytes));
    } catch (Throwable e) {
      throw rethrown(e);
    }
    return wrapped(address, bytes);
  }

  @Override
  ByteBuffer allocateZeroed(int bytes) {
    long address;
    try {
      address = (long) calloc.invokeExact(1L, (long) Math.max(1, bytes));
    } catch (Throwable e) {
      throw rethrown(e);
    }
    return wrapped(address, bytes);
  }

  private ByteBuffer wrapped(long address, int bytes) {
    if (address == 0) {
      throw new OutOfMemoryError("malloc of " + bytes + " bytes failed");
    }
    try {
      return ((ByteBuffer) wrap.invokeExact(address, (long) bytes)).order(ByteOrder.nativeOrder());
    } catch (Throwable e) {
      freeAddress(address, bytes);
      throw rethrown(e);
    }
  }

  @Override
  boolean growsInPlace() {
    return mmap != null;
  }

  /**
   * A mapping of {@code maxBytes} (rounded up to whole pages) starting on a 2 MiB boundary, so that
   * its whole 2 MiB spans can be huge pages: mapped with a huge page's room to spare, then the
   * unaligned head and the tail past the block unmapped.
   */
  @Override
  ByteBuffer allocateGrowable(int maxBytes, boolean inHugePages) {
    long length = (maxBytes + PAGE_BYTES - 1) & -PAGE_BYTES;
    long spare = HUGE_PAGE_BYTES - PAGE_BYTES;
    long raw;
    try {
      raw = (long) mmap.invokeExact(0L, length + spare, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
    } catch (Throwable e) {
      throw rethrown(e);
    }
    if (raw == MAP_FAILED) {
      throw new OutOfMemoryError("mmap of " + maxBytes + " bytes failed");
    }
    long aligned = (raw + HUGE_PAGE_BYTES - 1) & -HUGE_PAGE_BYTES;
    unmap(raw, aligned - raw);
    unmap(aligned + length, raw + length + spare - (aligned + length));
    if (inHugePages) {
      try {
        // Non-zero on a kernel without transparent huge pages: the block stays in 4 KiB pages.
        int ignored = (int) madvise.invokeExact(aligned, length, MADV_HUGEPAGE);
      } catch (Throwable e) {
        unmap(aligned, length);
        throw rethrown(e);
      }
    }
    mappedBlocks.add(aligned);
    return wrapped(aligned, maxBytes);
  }

  private void unmap(long address, long bytes) {
    if (bytes == 0) {
      return;
    }
    int result;
    try {
      result = (int) munmap.invokeExact(address, bytes);
    } catch (Throwable e) {
      throw rethrown(e);
    }
    if (result != 0) {
      throw new IllegalStateException("munmap of " + bytes + " bytes at " + Long.toHexString(address) + " failed");
    }
  }

  @Override
  void populate(ByteBuffer block, int fromByte, int toByte) {
    if (!isPopulateAvailable) {
      return;
    }
    long address;
    try {
      address = (long) addressAtPosition.invokeExact(block) - block.position();
    } catch (Throwable e) {
      throw rethrown(e);
    }
    // Whole pages inside the range only: the pages at its ends may be shared with other blocks.
    long from = (address + fromByte + PAGE_BYTES - 1) & -PAGE_BYTES;
    long to = (address + toByte) & -PAGE_BYTES;
    if (to <= from) {
      return;
    }
    int result;
    try {
      result = (int) madvise.invokeExact(from, to - from, MADV_POPULATE_WRITE);
    } catch (Throwable e) {
      throw rethrown(e);
    }
    if (result != 0) {
      // An older kernel: the pages fault in as they are written, as without this.
      isPopulateAvailable = false;
    }
  }

  @Override
  void free(ByteBuffer block) {
    long address;
    try {
      address = (long) addressAtPosition.invokeExact(block) - block.position();
    } catch (Throwable e) {
      throw rethrown(e);
    }
    freeAddress(address, block.capacity());
  }

  private void freeAddress(long address, int bytes) {
    if (mappedBlocks.remove(address)) {
      unmap(address, (bytes + PAGE_BYTES - 1) & -PAGE_BYTES);
      return;
    }
    try {
      free.invokeExact(address);
    } catch (Throwable e) {
      throw rethrown(e);
    }
  }

  private static RuntimeException rethrown(Throwable e) {
    if (e instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (e instanceof Error error) {
      throw error;
    }
    throw new IllegalStateException(e);
  }
}
