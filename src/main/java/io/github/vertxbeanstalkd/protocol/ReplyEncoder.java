package io.github.vertxbeanstalkd.protocol;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/** Writes replies in the exact byte format of beanstalkd 1.12. */
public final class ReplyEncoder {
  private static final byte[] CRLF = {'\r', '\n'};

  private ReplyEncoder() {}

  /** Appends one encoded reply to {@code out}. */
  public static void encode(Reply reply, Buffer out) {
    if (reply instanceof Reply.Word word) {
      out.appendBytes(word.line());
    } else if (reply instanceof Reply.Number number) {
      ascii(out, number.word());
      out.appendByte((byte) ' ');
      decimal(out, number.value());
      out.appendBytes(CRLF);
    } else if (reply instanceof Reply.Using using) {
      ascii(out, "USING ");
      ascii(out, using.tube());
      out.appendBytes(CRLF);
    } else if (reply instanceof Reply.JobBody job) {
      ascii(out, job.word());
      out.appendByte((byte) ' ');
      decimal(out, job.id());
      out.appendByte((byte) ' ');
      decimal(out, job.body().length);
      out.appendBytes(CRLF).appendBytes(job.body()).appendBytes(CRLF);
    } else if (reply instanceof Reply.Stats stats) {
      document(out, stats.document().yaml());
    } else if (reply instanceof Reply.TubeNames names) {
      document(out, names.yaml());
    } else if (reply instanceof Reply.Encoded encoded) {
      out.appendBytes(encoded.bytes());
    }
  }

  private static void document(Buffer out, byte[] yaml) {
    ascii(out, "OK ");
    decimal(out, yaml.length);
    out.appendBytes(CRLF).appendBytes(yaml).appendBytes(CRLF);
  }

  /** An upper bound of the encoded size, to size buffers once. */
  public static int sizeHint(Reply reply) {
    if (reply instanceof Reply.JobBody job) {
      return job.body().length + 48;
    }
    if (reply instanceof Reply.Stats || reply instanceof Reply.TubeNames) {
      return 4096;
    }
    if (reply instanceof Reply.Encoded encoded) {
      return encoded.bytes().length;
    }
    return 32;
  }

  /** Appends an unsigned decimal number without building a String. */
  private static void decimal(Buffer out, long value) {
    if (value < 0) {
      ascii(out, Long.toUnsignedString(value));
      return;
    }
    if (value < 10) {
      out.appendByte((byte) ('0' + value));
      return;
    }
    byte[] digits = new byte[20];
    int at = digits.length;
    for (long v = value; v != 0; v /= 10) {
      digits[--at] = (byte) ('0' + (v % 10));
    }
    out.appendBytes(digits, at, digits.length - at);
  }

  /** Encodes one reply into a new buffer. */
  public static Buffer encode(Reply reply) {
    Buffer out = Buffer.buffer(64);
    encode(reply, out);
    return out;
  }

  private static void ascii(Buffer out, String s) {
    out.appendBytes(s.getBytes(StandardCharsets.ISO_8859_1));
  }
}
