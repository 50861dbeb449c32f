package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LoopbackPortsTest {
  private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

  @Test
  void portsLieBelowTheEphemeralRangeAreBindableAndNeverRepeat() throws Exception {
    int ephemeralLow = Files.isReadable(RANGE)
        ? Integer.parseInt(Files.readAllLines(RANGE).get(0).trim().split("\\s+")[0]) : 32_768;
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      int port = LoopbackPorts.unused();
      assertTrue(port >= 10_000 && port < ephemeralLow, port + " is not below the ephemeral range " + ephemeralLow);
      assertTrue(seen.add(port), port + " handed out twice");
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
        assertEquals(port, s.getLocalPort());
      }
    }
  }
}
