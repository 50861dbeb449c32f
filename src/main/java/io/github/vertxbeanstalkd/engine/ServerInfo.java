package io.github.vertxbeanstalkd.engine;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/** Facts about this process that `stats` reports; gathered once, at start-up, off the event loop. */
public record ServerInfo(long pid, String version, String id, String hostname, String os, String platform) {

  /** The protocol version we speak, as 1.12 prints it. */
  public static final String PROTOCOL_VERSION = "1.12";

  /** Reads pid, hostname and kernel; may block on a DNS lookup, so never call it on an event loop. */
  public static ServerInfo gather() {
    byte[] random = new byte[8];
    new SecureRandom().nextBytes(random);
    return new ServerInfo(ProcessHandle.current().pid(), PROTOCOL_VERSION, HexFormat.of().formatHex(random),
        localHostname(), kernelVersion(), machine());
  }

  /** Fixed values for tests. */
  public static ServerInfo forTests() {
    return new ServerInfo(1, PROTOCOL_VERSION, "0123456789abcdef", "localhost", "test", "test");
  }

  private static String localHostname() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      String env = System.getenv("HOSTNAME");
      return env == null ? "localhost" : env;
    }
  }

  /** uname(2)'s version field, which 1.12 reports as {@code os}. */
  private static String kernelVersion() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/version")).strip();
    } catch (IOException | RuntimeException e) {
      return System.getProperty("os.version", "unknown");
    }
  }

  /** uname(2)'s machine field, which 1.12 reports as {@code platform}. */
  private static String machine() {
    String arch = System.getProperty("os.arch", "unknown");
    return switch (arch) {
      case "amd64" -> "x86_64";
      case "arm64" -> "aarch64";
      default -> arch;
    };
  }
}
