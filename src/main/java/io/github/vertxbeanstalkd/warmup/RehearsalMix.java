package io.github.vertxbeanstalkd.warmup;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * The varied part of a {@link RehearsalLoad} round: seeded bursts of every command, valid and
 * not (unknown words, bad arguments, over-long lines, bodies of every size class, bodies too big
 * or without their CR LF, many tubes, missing ids), pipelined over a few connections that now
 * and then close or reset with replies still unread.
 *
 * <p>Why: the load's cases take only the common branches of the hot paths (parser, reader,
 * connection, engine, store), so the optimising compiler left every other branch out of their
 * code as never taken. The first client that took one (an unknown command, a put into a new size
 * class) threw that code away and had it compiled again on its time, with the compiler's arenas
 * (malloc'd, freed only to libc) in the process's memory. Measured, 20 s of a random stream just
 * after the port opened: about 150 such traps, 380 methods compiled again by C2, and 5-15 MiB of
 * the compiler's freed arenas in the RSS when the stream ended (src/test/scripts/hostile-memory.py).
 * A branch taken during the rehearsal stays in the profiles the compiler reads.
 *
 * <p>Replies are not checked one by one: each burst ends with a {@code use} of a tube no other
 * command names, and the burst is done when its {@code USING} reply has come. Each connection's
 * replies are read by a thread of its own as they come.
 */
final class RehearsalMix {
  private static final int CONNECTIONS = 3;
  private static final int MAX_BURST = 24;
  private static final String MARK_TUBE = "mix-done";
  private static final byte[] MARK = ("\r\nuse " + MARK_TUBE + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
  private static final byte[] MARK_REPLY = ("USING " + MARK_TUBE + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
  private static final byte[] QUIT = "quit\r\n".getBytes(StandardCharsets.ISO_8859_1);

  private final MixCommands mix;
  private final MixLane[] lanes = new MixLane[CONNECTIONS];
  private final String host;
  private final int port;
  private final Set<Integer> ownPorts;
  private int commands;

  private RehearsalMix(String host, int port, Set<Integer> ownPorts, int maxJobBytes, long seed) {
    this.host = host;
    this.port = port;
    this.ownPorts = ownPorts;
    mix = new MixCommands(maxJobBytes, seed);
  }

  /**
   * Plays {@code bursts} bursts, seeded, against the server at {@code host:port}, whose largest job
   * is {@code maxJobBytes}; returns how many commands were sent. Blocking, so on a worker thread.
   * The local port of every connection goes into {@code ownPorts} before it connects.
   *
   * @throws IOException when the server stops answering
   */
  static int play(String host, int port, Set<Integer> ownPorts, int maxJobBytes, int bursts, long seed)
      throws IOException {
    RehearsalMix mix = new RehearsalMix(host, port, ownPorts, maxJobBytes, seed);
    try {
      for (int i = 0; i < bursts; i++) {
        mix.burst(i % CONNECTIONS);
      }
    } finally {
      for (MixLane lane : mix.lanes) {
        if (lane != null) {
          lane.close();
        }
      }
    }
    return mix.commands;
  }

  private void burst(int index) throws IOException {
    MixLane lane = lanes[index];
    if (lane == null) {
      lane = lanes[index] = new MixLane(connect(), MARK_REPLY, mix.lastId);
    }
    boolean isOpen;
    try {
      isOpen = send(lane);
    } catch (SocketException closedByServer) {
      // After a quit, or a command it reads as one ("quit-not"), the server closes the connection.
      isOpen = false;
    }
    if (!isOpen) {
      lane.close();
      lanes[index] = null;
    }
  }

  /** Sends a burst on {@code lane}; returns whether the lane is still open once it was answered. */
  private boolean send(MixLane lane) throws IOException {
    ByteArrayOutputStream burst = new ByteArrayOutputStream(4096);
    int count = 1 + mix.nextInt(MAX_BURST);
    for (int i = 0; i < count; i++) {
      mix.command(burst, i == count - 1);
    }
    commands += count;
    // Many clients connect for a few commands (a web request's worth) and go: one burst in four ends
    // its connection, with a reset, a quit, or a close once the replies are in.
    int ending = mix.nextInt(12);
    if (ending != 0) {
      burst.write(ending == 1 ? QUIT : MARK);
    }
    OutputStream out = lane.socket.getOutputStream();
    out.write(burst.toByteArray());
    out.flush();
    if (ending == 0) {
      // Gone with replies unread: a reset.
      lane.socket.setSoLinger(true, 0);
      return false;
    }
    if (ending == 1) {
      return false;
    }
    // Ending 2: closed by this side once the burst was answered.
    return lane.awaitMark() && ending > 2;
  }

  private Socket connect() throws IOException {
    Socket socket = RehearsalScript.openSocket(host, port, ownPorts);
    String tube = mix.tube();
    socket.getOutputStream().write(("use " + tube + "\r\nwatch " + tube + "\r\nignore default\r\n")
        .getBytes(StandardCharsets.ISO_8859_1));
    commands += 3;
    return socket;
  }
}
