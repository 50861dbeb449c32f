package io.github.vertxbeanstalkd.replication.forwarding;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/** Reads the forwarding wire's values from a buffer, front to back (see {@link ForwardFrames}). */
final class WireReader {
  private final Buffer buffer;
  private int pos;

  WireReader(Buffer buffer) {
    this.buffer = buffer;
  }

  boolean hasMore() {
    return pos < buffer.length();
  }

  byte readByte() {
    return buffer.getByte(pos++);
  }

  boolean readBoolean() {
    return readByte() != 0;
  }

  int readInt() {
    int v = buffer.getInt(pos);
    pos += 4;
    return v;
  }

  long readLong() {
    long v = buffer.getLong(pos);
    pos += 8;
    return v;
  }

  /** A length, then that many bytes, copied into an array of their own. */
  byte[] readBytes() {
    int n = readInt();
    byte[] bytes = buffer.getBytes(pos, pos + n);
    pos += n;
    return bytes;
  }

  /** Tube names and addresses: bytes, one char per byte (ISO-8859-1, as the protocol reads tube names). */
  String readString() {
    int n = readInt();
    String s = buffer.getString(pos, pos + n, StandardCharsets.ISO_8859_1.name());
    pos += n;
    return s;
  }

  static void writeBoolean(Buffer out, boolean value) {
    out.appendByte(value ? (byte) 1 : (byte) 0);
  }

  static void writeString(Buffer out, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
    out.appendInt(bytes.length).appendBytes(bytes);
  }
}
