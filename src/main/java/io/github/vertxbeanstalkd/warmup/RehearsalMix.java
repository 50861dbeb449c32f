package io.github.vertxbeanstalkd.warmup;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

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
  private static final int TIMEOUT_MILLIS = 5_000;
  private static final int CONNECTIONS = 3;
  private static final int TUBES = 24;
  private static final int MAX_BURST = 24;
  private static final String MARK_TUBE = "mix-done";
  private static final byte[] MARK = ("\r\nuse " + MARK_TUBE + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
  private static final byte[] MARK_REPLY = ("USING " + MARK_TUBE + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
  private static final byte[] CRLF = {'\r', '\n'};
  private static final int NOISE_SLACK = 64;
  private static final String WORD_BYTES = "abcdefghijklmnopqrstuvwxyz-_0123456789";
  /** Command words, as the start of unknown and over-long lines; not the reserves, whose junk could wait. */
  private static final String[] WORDS = {"put", "use", "delete", "release", "bury", "touch", "watch", "ignore", "peek",
      "peek-ready", "kick", "kick-job", "stats", "stats-job", "stats-tube", "list-tubes", "pause-tube", "quit"};
  private static final String[] TUBE_PREFIXES = {"mix", "Mix(", "m;x/", "mix.$_+", "MIX)-"};
  private static final byte[] QUIT = "quit\r\n".getBytes(StandardCharsets.ISO_8859_1);
  private static final byte[] INSERTED = "INSERTED ".getBytes(StandardCharsets.ISO_8859_1);
  private static final String[] UNKNOWN = {"frobnicate", "PUT 0 0 1 1", "reserve-now", "stats-tubes", "x", "peek-all",
      "delete", "kick-jobs 1", "use", "watch", "list-tube", "\u00e9t\u00e9", "quit-not"};
  private static final String[] BAD_ARGUMENTS = {"put 0 0 10", "put a 0 10 1", "put 0 0 10 -1", "put 4294967296 0 1 1",
      "delete x", "delete 18446744073709551616", "release 1 2", "bury", "touch -1", "kick x", "kick-job 1 2",
      "reserve-with-timeout 18446744073709551616", "reserve-with-timeout 0x", "pause-tube mix0", "pause-tube mix0 x",
      "use -bad",
      "watch " + "t".repeat(201), "use a b", "peek 1 ", "stats-job", "stats-tube", "ignore", "put 0 0 1 1 1",
      "release 1 4294967296 0", "use mix\u0001", "delete 1\u00001"};

  private final SplittableRandom random;
  private final Lane[] lanes = new Lane[CONNECTIONS];
  /** Bodies: random bytes, CR and LF among them. */
  private final byte[] noise;
  private final String host;
  private final int port;
  private final Set<Integer> ownPorts;
  private final int maxJobBytes;
  /** The newest id an INSERTED reply gave, as the lanes' readers saw it. */
  private final AtomicLong lastId = new AtomicLong(1);
  private int commands;

  private RehearsalMix(String host, int port, Set<Integer> ownPorts, int maxJobBytes, long seed) {
    this.host = host;
    this.port = port;
    this.ownPorts = ownPorts;
    this.maxJobBytes = maxJobBytes;
    this.random = new SplittableRandom(seed);
    noise = new byte[maxJobBytes + NOISE_SLACK];
    random.nextBytes(noise);
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
      for (Lane lane : mix.lanes) {
        if (lane != null) {
          lane.close();
        }
      }
    }
    return mix.commands;
  }

  private void burst(int index) throws IOException {
    Lane lane = lanes[index];
    if (lane == null) {
      lane = lanes[index] = new Lane(connect(), lastId);
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
  private boolean send(Lane lane) throws IOException {
    ByteArrayOutputStream burst = new ByteArrayOutputStream(4096);
    int count = 1 + random.nextInt(MAX_BURST);
    for (int i = 0; i < count; i++) {
      command(burst, i == count - 1);
    }
    // Many clients connect for a few commands (a web request's worth) and go: one burst in four ends
    // its connection, with a reset, a quit, or a close once the replies are in.
    int ending = random.nextInt(12);
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
    Socket socket = new Socket();
    // Closed by this side, so its port stays in TIME_WAIT: as in RehearsalScript.
    socket.setReuseAddress(true);
    socket.bind(new InetSocketAddress(host, 0));
    ownPorts.add(socket.getLocalPort());
    socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
    socket.setTcpNoDelay(true);
    String tube = tube();
    socket.getOutputStream().write(("use " + tube + "\r\nwatch " + tube + "\r\nignore default\r\n")
        .getBytes(StandardCharsets.ISO_8859_1));
    commands += 3;
    return socket;
  }

  /** Appends one command; {@code isLast}: the last of its burst, so only the mark follows it. */
  private void command(ByteArrayOutputStream burst, boolean isLast) throws IOException {
    commands++;
    int pick = random.nextInt(100);
    if (pick < 28) {
      put(burst, isLast);
    } else if (pick < 38) {
      line(burst, unknown());
    } else if (pick < 50) {
      line(burst, BAD_ARGUMENTS[random.nextInt(BAD_ARGUMENTS.length)]);
    } else if (pick < 53) {
      overlong(burst);
    } else if (pick < 60) {
      String base = valid();
      while (base.startsWith("reserve-with-timeout")) {
        base = valid();
      }
      burst.write(mutate(base.getBytes(StandardCharsets.ISO_8859_1)));
      burst.write(CRLF);
    } else if (pick < 61) {
      burst.write(CRLF);
    } else {
      line(burst, valid());
    }
  }

  private static void line(ByteArrayOutputStream burst, String line) throws IOException {
    burst.write(line.getBytes(StandardCharsets.ISO_8859_1));
    burst.write(CRLF);
  }

  /**
   * A put of random bytes, now and then with a wrong ending: without its CR LF (EXPECTED_CRLF), with
   * a few bytes too many (EXPECTED_CRLF, then they are read as a command), or a few too few when
   * nothing but the mark follows (the server reads into empty lines put before it).
   */
  private void put(ByteArrayOutputStream burst, boolean isLast) throws IOException {
    int size = bodySize();
    long delay = random.nextInt(8) == 0 ? 1 + random.nextInt(100) : 0;
    line(burst, "put " + (random.nextInt(3) == 0 ? random.nextLong(1L << 32) : 1024) + " " + delay + " "
        + random.nextInt(120) + " " + size);
    int kind = random.nextInt(40);
    int sent = size;
    if (kind == 0 && isLast && size > 0 && size <= maxJobBytes) {
      sent = Math.max(0, size - 1 - random.nextInt(7));
    }
    for (int left = sent; left > 0; ) {
      int piece = Math.min(left, maxJobBytes);
      burst.write(noise, random.nextInt(NOISE_SLACK), piece);
      left -= piece;
    }
    if (kind == 1) {
      burst.write('x');
      burst.write('y');
    } else {
      if (kind == 2) {
        burst.write(word(1 + random.nextInt(7)).getBytes(StandardCharsets.ISO_8859_1));
      }
      burst.write(CRLF);
    }
    if (sent < size) {
      // Empty lines for the server to read into, so that the mark after them stays whole.
      for (int i = 0; i < 5; i++) {
        burst.write(CRLF);
      }
    }
  }

  /**
   * Sizes from every size class of the job store, and now and then one past the largest job. Fewer
   * large bodies (half as many bytes) made the mix 0.4 s shorter and the stream's growth no smaller.
   */
  private int bodySize() {
    int band = random.nextInt(10);
    if (band < 4) {
      return random.nextInt(257);
    } else if (band < 7) {
      return random.nextInt(4_097);
    } else if (band < 9) {
      return random.nextInt(maxJobBytes + 1);
    }
    return random.nextInt(4) == 0 ? maxJobBytes + 1 + random.nextInt(maxJobBytes) : maxJobBytes - random.nextInt(16);
  }

  /** A word no command starts with, or one that starts with a command's word, and maybe numbers after it. */
  private String unknown() {
    if (random.nextInt(3) == 0) {
      return UNKNOWN[random.nextInt(UNKNOWN.length)];
    }
    StringBuilder text = new StringBuilder();
    if (random.nextInt(3) == 0) {
      text.append(WORDS[random.nextInt(WORDS.length)]);
    }
    text.append(word(1 + random.nextInt(29)));
    if (random.nextBoolean()) {
      for (int i = random.nextInt(4); i >= 0; i--) {
        text.append(' ').append(random.nextLong(-5, 1L << 33));
      }
    }
    return text.toString();
  }

  private String word(int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(WORD_BYTES.charAt(random.nextInt(WORD_BYTES.length())));
    }
    return text.toString();
  }

  /**
   * Longer than a command line may be: one BAD_FORMAT once its CR LF comes. Never 1 byte past a
   * multiple of 224 in all: there beanstalkd's quirk swallows the next line with it.
   */
  private void overlong(ByteArrayOutputStream burst) throws IOException {
    byte[] word = WORDS[random.nextInt(WORDS.length)].getBytes(StandardCharsets.ISO_8859_1);
    int length = 200 + random.nextInt(3_800);
    if ((word.length + 1 + length + 2) % 224 == 1) {
      length++;
    }
    burst.write(word);
    burst.write(' ');
    byte[] junk = new byte[length];
    int from = random.nextInt(NOISE_SLACK);
    for (int i = 0; i < length; i++) {
      junk[i] = (byte) (' ' + (noise[from + i] & 0x7f) % 95);
    }
    burst.write(junk);
    burst.write(CRLF);
  }

  /**
   * A valid line with one to three random edits (a bit flipped, a byte added or dropped, a stretch
   * repeated) that never make a CR or LF, nor start from a reserve that could wait.
   */
  private byte[] mutate(byte[] line) {
    ByteArrayOutputStream copy = new ByteArrayOutputStream(line.length + 32);
    copy.writeBytes(line);
    byte[] data = line;
    for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
      int at = random.nextInt(data.length + 1);
      copy.reset();
      copy.write(data, 0, at);
      switch (random.nextInt(4)) {
        case 0 -> {
          if (at < data.length) {
            copy.write(lineSafe(data[at] ^ (1 << random.nextInt(8))));
            at++;
          }
        }
        case 1 -> copy.write(lineSafe(random.nextInt(256)));
        case 2 -> at = Math.min(data.length, at + 1);
        default -> copy.write(data, at, Math.min(data.length - at, 1 + random.nextInt(15)));
      }
      copy.write(data, at, data.length - at);
      data = copy.toByteArray();
    }
    return data;
  }

  private static int lineSafe(int b) {
    int v = b & 0xff;
    return v == '\r' || v == '\n' ? ' ' : v;
  }

  private String valid() {
    long newest = lastId.get();
    long id = random.nextInt(4) == 0 ? 1 + random.nextLong(newest + 10) : Math.max(1, newest - random.nextInt(64));
    return switch (random.nextInt(24)) {
      case 0 -> "use " + tube();
      case 1 -> "watch " + tube();
      case 2 -> "ignore " + tube();
      case 3 -> "reserve-job " + id;
      case 4, 5, 6 -> "delete " + id;
      case 7 -> "release " + id + " " + random.nextInt(1000) + " " + random.nextInt(3);
      case 8 -> "bury " + id + " " + random.nextInt(1000);
      case 9 -> "touch " + id;
      case 10 -> "peek " + id;
      case 11 -> "peek-ready";
      case 12 -> "peek-delayed";
      case 13 -> "peek-buried";
      case 14 -> "kick " + (1 + random.nextInt(20));
      case 15 -> "kick-job " + id;
      case 16 -> "stats-job " + id;
      case 17 -> "stats-tube " + tube();
      case 18 -> "stats";
      case 19 -> "list-tubes";
      case 20 -> "list-tube-used";
      case 21 -> "list-tubes-watched";
      case 22 -> "pause-tube " + tube() + " " + random.nextInt(3);
      // Not mutated: an edit could make it wait (reserve-with-timeout 8).
      default -> random.nextInt(3) == 0 ? "reserve-with-timeout 0" : "stats-tube " + tube();
    };
  }

  /** Tube names of every byte a name may hold. */
  private String tube() {
    int n = random.nextInt(TUBES);
    return TUBE_PREFIXES[n % TUBE_PREFIXES.length] + n;
  }

  /**
   * One connection and the thread that reads its replies as they come, so that a burst's writes
   * never wait on replies nobody reads (peeks and reserves answer with bodies of up to a job's size).
   */
  private static final class Lane implements AutoCloseable {
    private final Socket socket;
    private final AtomicLong lastId;
    private final Semaphore marks = new Semaphore(0);
    private final Thread reader;
    private volatile boolean isClosed;

    Lane(Socket socket, AtomicLong lastId) {
      this.socket = socket;
      this.lastId = lastId;
      reader = new Thread(this::read, "warm-up-mix-reader");
      reader.setDaemon(true);
      reader.start();
    }

    /** Whether the burst's end was answered; false when the server closed the connection first. */
    boolean awaitMark() throws IOException {
      try {
        if (!marks.tryAcquire(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
          throw new IOException("warm-up mix: no reply to a burst's end in " + TIMEOUT_MILLIS + " ms");
        }
        return !isClosed;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("warm-up mix: interrupted", e);
      }
    }

    /** Reads replies until the connection ends, counting marks and noting the ids INSERTED gave. */
    private void read() {
      byte[] scratch = new byte[16 * 1024];
      int matched = 0;
      int lineAt = 0;
      long id = 0;
      try {
        InputStream in = socket.getInputStream();
        for (int n; (n = in.read(scratch)) >= 0; ) {
          for (int i = 0; i < n; i++) {
            byte b = scratch[i];
            matched = b == MARK_REPLY[matched] ? matched + 1 : (b == MARK_REPLY[0] ? 1 : 0);
            if (matched == MARK_REPLY.length) {
              matched = 0;
              marks.release();
            }
            if (b == '\n') {
              lineAt = 0;
              lastId.accumulateAndGet(id, Math::max);
              id = 0;
            } else if (lineAt < INSERTED.length) {
              lineAt = b == INSERTED[lineAt] ? lineAt + 1 : Integer.MAX_VALUE;
            } else if (lineAt == INSERTED.length && b >= '0' && b <= '9') {
              id = id * 10 + (b - '0');
            }
          }
        }
      } catch (IOException closed) {
        // Closed or reset: as an end of stream.
      }
      isClosed = true;
      marks.release();
    }

    @Override
    public void close() throws IOException {
      socket.close();
      try {
        reader.join(TIMEOUT_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
