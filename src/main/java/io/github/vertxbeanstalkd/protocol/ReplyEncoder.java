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
      ascii(out, number.word() + ' ' + number.value());
      out.appendBytes(CRLF);
    } else if (reply instanceof Reply.Using using) {
      ascii(out, "USING " + using.tube());
      out.appendBytes(CRLF);
    } else if (reply instanceof Reply.JobBody job) {
      ascii(out, job.word() + ' ' + Long.toUnsignedString(job.id()) + ' ' + job.body().length);
      out.appendBytes(CRLF).appendBytes(job.body()).appendBytes(CRLF);
    } else if (reply instanceof Reply.Document doc) {
      ascii(out, "OK " + doc.yaml().length);
      out.appendBytes(CRLF).appendBytes(doc.yaml()).appendBytes(CRLF);
    }
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
