package io.github.vertxbeanstalkd.warmup;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a {@link RehearsalMix} sends: seeded commands, valid and not, that never make a connection
 * wait (no reserve that could block, no line that would swallow the burst's end).
 */
final class MixCommands {
  private static final int TUBES = 24;
  private static final byte[] CRLF = {'\r', '\n'};
  private static final int NOISE_SLACK = 64;
  private static final String WORD_BYTES = "abcdefghijklmnopqrstuvwxyz-_0123456789";
  /** Command words, as the start of unknown and over-long lines; not the reserves, whose junk could wait. */
  private static final String[] WORDS = {"put", "use", "delete", "release", "bury", "touch", "watch", "ignore", "peek",
      "peek-ready", "kick", "kick-job", "stats", "stats-job", "stats-tube", "list-tubes", "pause-tube", "quit"};
  private static final String[] TUBE_PREFIXES = {"mix", "Mix(", "m;x/", "mix.$_+", "MIX)-"};
  private static final String[] UNKNOWN = {"frobnicate", "PUT 0 0 1 1", "reserve-now", "stats-tubes", "x", "peek-all",
      "delete", "kick-jobs 1", "use", "watch", "list-tube", "\u00e9t\u00e9", "quit-not"};
  private static final String[] BAD_ARGUMENTS = {"put 0 0 10", "put a 0 10 1", "put 0 0 10 -1", "put 4294967296 0 1 1",
      "delete x", "delete 18446744073709551616", "release 1 2", "bury", "touch -1", "kick x", "kick-job 1 2",
      "reserve-with-timeout 18446744073709551616", "reserve-with-timeout 0x", "pause-tube mix0", "pause-tube mix0 x",
      "use -bad", "watch " + "t".repeat(201), "use a b", "peek 1 ", "stats-job", "stats-tube", "ignore",
      "put 0 0 1 1 1", "release 1 4294967296 0", "use mix\u0001", "delete 1\u00001"};

  private final SplittableRandom random;
  /** Bodies: random bytes, CR and LF among them. */
  private final byte[] noise;
  private final int maxJobBytes;
  /** The newest id an INSERTED reply gave, as the lanes' readers saw it. */
  final AtomicLong lastId = new AtomicLong(1);

  MixCommands(int maxJobBytes, long seed) {
    this.maxJobBytes = maxJobBytes;
    random = new SplittableRandom(seed);
    noise = new byte[maxJobBytes + NOISE_SLACK];
    random.nextBytes(noise);
  }

  /** A number from 0 (inclusive) to {@code bound}, from the same seeded sequence. */
  int nextInt(int bound) {
    return random.nextInt(bound);
  }

  /** Appends one command; {@code isLast}: the last of its burst, so only the mark follows it. */
  void command(ByteArrayOutputStream burst, boolean isLast) throws IOException {
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
  String tube() {
    int n = random.nextInt(TUBES);
    return TUBE_PREFIXES[n % TUBE_PREFIXES.length] + n;
  }
}
