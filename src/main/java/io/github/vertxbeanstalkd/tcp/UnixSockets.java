package io.github.vertxbeanstalkd.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The socket file a unix domain socket listener binds: one left by a server that was killed would
 * make the bind fail (address in use), so a stale socket (nobody accepts on it) is removed first. A
 * socket something still listens on, or anything else found there (a file, a directory), is not
 * touched and stops the start with a message naming the path.
 */
final class UnixSockets {
  private UnixSockets() {}

  private static boolean isOther(Path path) {
    try {
      return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther();
    } catch (IOException e) {
      throw new UncheckedIOException("listener " + path + ": cannot be read", e);
    }
  }

  /** Removes a socket file at {@code path}, if there is one. Blocking: call it off the event loop. */
  static void removeStale(Path path) {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    // A socket is neither a regular file, nor a directory, nor a link: "other" to java.nio.
    if (!isOther(path)) {
      throw new IllegalArgumentException("config: listener " + path + ": the path exists and is not a socket; "
          + "remove it or choose another path");
    }
    try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(path))) {
      throw new IllegalArgumentException("config: listener " + path + ": another process listens on this socket");
    } catch (IOException refused) {
      // Connection refused: nobody listens; the file is what a killed server left.
    }
    try {
      Files.delete(path);
    } catch (IOException e) {
      throw new UncheckedIOException("listener " + path + ": cannot remove the stale socket", e);
    }
  }
}
