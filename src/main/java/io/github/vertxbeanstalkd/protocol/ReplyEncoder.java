package io.github.vertxbeanstalkd.protocol;

import io.vertx.core.buffer.Buffer;

/**
 * Writes replies in the exact byte format of beanstalkd 1.12, into any byte sink ({@link Out}),
 * without an object of its own per reply: numbers go out digit by digit, words char by char.
 */
public final class ReplyEncoder {
  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] OK = {'O', 'K', ' '};
  private static final byte[] USING = {'U', 'S', 'I', 'N', 'G', ' '};

  /** Where encoded bytes go, in order: a socket's buffer, a Vert.x {@link Buffer}. */
  public interface Out {
    void writeByte(int b);

    void writeBytes(byte[] bytes, int from, int length);
  }

  private ReplyEncoder() {}

  /** Appends one encoded reply to {@code out}. */
  public static void encode(Reply reply, Out out) {
    if (reply instanceof Reply.Word word) {
      byte[] line = word.line();
      out.writeBytes(line, 0, line.length);
    } else if (reply instanceof Reply.Number number) {
      ascii(out, number.word());
      out.writeByte(' ');
      decimal(out, number.value());
      out.writeBytes(CRLF, 0, 2);
    } else if (reply instanceof Reply.Using using) {
      out.writeBytes(USING, 0, USING.length);
      ascii(out, using.tube());
      out.writeBytes(CRLF, 0, 2);
    } else if (reply instanceof Reply.JobBody job) {
      ascii(out, job.word());
      out.writeByte(' ');
      decimal(out, job.id());
      out.writeByte(' ');
      decimal(out, job.length());
      out.writeBytes(CRLF, 0, 2);
      out.writeBytes(job.bodyArray(), 0, job.length());
      out.writeBytes(CRLF, 0, 2);
    } else if (reply instanceof Reply.Stats stats) {
      document(out, stats.document().yaml());
    } else if (reply instanceof Reply.TubeNames names) {
      document(out, names.yaml());
    } else if (reply instanceof Reply.Encoded encoded) {
      out.writeBytes(encoded.bytes(), 0, encoded.bytes().length);
    }
  }

  /** Appends one encoded reply to {@code out}. */
  public static void encode(Reply reply, Buffer out) {
    encode(reply, new Out() {
      @Override
      public void writeByte(int b) {
        out.appendByte((byte) b);
      }

      @Override
      public void writeBytes(byte[] bytes, int from, int length) {
        out.appendBytes(bytes, from, length);
      }
    });
  }

  /** Encodes one reply into a new buffer. */
  public static Buffer encode(Reply reply) {
    Buffer out = Buffer.buffer(sizeHint(reply));
    encode(reply, out);
    return out;
  }

  private static void document(Out out, byte[] yaml) {
    out.writeBytes(OK, 0, OK.length);
    decimal(out, yaml.length);
    out.writeBytes(CRLF, 0, 2);
    out.writeBytes(yaml, 0, yaml.length);
    out.writeBytes(CRLF, 0, 2);
  }

  /** An upper bound of the encoded size, to size buffers once (a stats document may still pass it). */
  public static int sizeHint(Reply reply) {
    if (reply instanceof Reply.JobBody job) {
      return job.length() + 48;
    }
    if (reply instanceof Reply.TubeNames list) {
      // Its size, not a constant: held replies are counted by it, and a list of 38,000 tubes is
      // 600 KB (its list of names alone 150 KB of heap), not 4 KiB.
      int bytes = 32;
      for (String name : list.names()) {
        bytes += name.length() + 3;
      }
      return bytes;
    }
    if (reply instanceof Reply.Stats) {
      return 4096;
    }
    if (reply instanceof Reply.Encoded encoded) {
      return encoded.bytes().length;
    }
    if (reply instanceof Reply.Using using) {
      return using.tube().length() + 8;
    }
    return 32;
  }

  /** Appends an unsigned decimal number, most significant digit first. */
  private static void decimal(Out out, long value) {
    if (value < 0) {
      ascii(out, Long.toUnsignedString(value));
      return;
    }
    long power = 1;
    while (power <= value / 10) {
      power *= 10;
    }
    for (; power > 0; power /= 10) {
      out.writeByte((int) ('0' + (value / power) % 10));
    }
  }

  /** Protocol words and tube names are ASCII: one byte per char. */
  private static void ascii(Out out, String s) {
    for (int i = 0; i < s.length(); i++) {
      out.writeByte(s.charAt(i));
    }
  }
}
