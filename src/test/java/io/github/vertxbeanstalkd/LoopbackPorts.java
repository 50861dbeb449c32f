package io.github.vertxbeanstalkd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports on 127.0.0.1 for a server that binds them later, in a child JVM or after a restart.
 *
 * <p>A port the kernel picks with {@code bind(0)} comes from its ephemeral range, the range every
 * outgoing connection's local port also comes from. Between the pick and the child's bind, a
 * Hazelcast member or any client connecting anywhere can be handed that very port, and the child
 * fails with "Address already in use" (seen once in CI, in FailoverTest). A port below the range is
 * never handed out by the kernel; the only risk left is another build picking the same one, which a
 * bind right before handing it out and a random pick make rare.
 */
public final class LoopbackPorts {
  /** Linux's default when the range cannot be read. */
  private static final int EPHEMERAL_LOW_DEFAULT = 32_768;
  private static final int LOWEST = 10_000;
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private LoopbackPorts() {
  }

  /** A port free now on loopback, outside the kernel's ephemeral range, never handed out before in this JVM. */
  public static int unused() {
    int highest = ephemeralLow() - 1;
    if (highest - LOWEST < 1_000) {
      return pickedByKernel();
    }
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(LOWEST, highest + 1);
      if (!HANDED_OUT.contains(port) && isFree(port) && HANDED_OUT.add(port)) {
        return port;
      }
    }
    return pickedByKernel();
  }

  private static boolean isFree(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return true;
    } catch (IOException taken) {
      return false;
    }
  }

  private static int pickedByKernel() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int ephemeralLow() {
    try {
      // readString reads a /proc file wrong here (its size is 0): "3" for "32768\t60999".
      String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
      return Integer.parseInt(range.split("\\s+")[0]);
    } catch (IOException | RuntimeException notLinux) {
      return EPHEMERAL_LOW_DEFAULT;
    }
  }
}
