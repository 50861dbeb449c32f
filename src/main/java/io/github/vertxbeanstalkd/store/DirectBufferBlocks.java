package io.github.vertxbeanstalkd.store;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Blocks from {@link ByteBuffer#allocateDirect}, for Java before 22 (no Foreign Function & Memory
 * API): zeroed at allocation (each new page faulted in at once, in the engine's turn that makes it)
 * and counted against -XX:MaxDirectMemorySize. They are freed at once through {@code
 * sun.misc.Unsafe.invokeCleaner}, the JDK's critical internal API for exactly this (module
 * jdk.unsupported, open without any flag; JEP 260), which runs the buffer's own cleaner: the memory
 * goes back and java.nio's count goes down. Only on a JVM without it are blocks left to the
 * collector.
 */
final class DirectBufferBlocks extends NativeBlocks {
  /** sun.misc.Unsafe.invokeCleaner(ByteBuffer) bound to the instance, or null. */
  private static final MethodHandle INVOKE_CLEANER = invokeCleaner();

  private static MethodHandle invokeCleaner() {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
      theUnsafe.setAccessible(true);
      return MethodHandles.lookup()
          .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
          .bindTo(theUnsafe.get(null));
    } catch (ReflectiveOperationException | RuntimeException notThere) {
      return null;
    }
  }

  @Override
  String description() {
    return "ByteBuffer.allocateDirect, freed at once through its cleaner"
        + (INVOKE_CLEANER == null ? " (not available here: freed by the collector)" : "")
        + "; new pages are zeroed ahead";
  }

  @Override
  boolean isUntouched() {
    return false;
  }

  @Override
  boolean isCountedByJavaNio() {
    return true;
  }

  @Override
  ByteBuffer allocate(int bytes) {
    return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
  }

  @Override
  ByteBuffer allocateZeroed(int bytes) {
    return allocate(bytes);
  }

  @Override
  void free(ByteBuffer block) {
    if (INVOKE_CLEANER == null) {
      return;
    }
    try {
      INVOKE_CLEANER.invokeExact(block);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }
}
