package io.github.vertxbeanstalkd.persistence;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A job's body as a {@link BinlogRecord.JobSnapshot} carries it: read once, by the writer thread,
 * straight into the record's frame. Whatever backs it must never change after the snapshot is
 * appended: the writer reads it on its own thread, later.
 */
public interface SnapshotBody {
  SnapshotBody EMPTY = of(new byte[0]);

  int length();

  /** Puts every byte into {@code target} at its position, which moves on by {@link #length()}. */
  void copyTo(ByteBuffer target);

  /** A fresh array holding the bytes. */
  default byte[] toArray() {
    byte[] copy = new byte[length()];
    copyTo(ByteBuffer.wrap(copy));
    return copy;
  }

  /** The array itself, not a copy (a body read from disk or from the store): never modify it afterwards. */
  static SnapshotBody of(byte[] body) {
    return new Bytes(body);
  }

  /**
   * Bytes {@code [offset, offset + length)} of {@code data}, not a copy: for a replay, whose target
   * copies the body into the store before the array is read again. Never to be kept.
   */
  static SnapshotBody lent(byte[] data, int offset, int length) {
    return new Lent(data, offset, length);
  }

  /** A body lent from the array a replay read a segment into. */
  final class Lent implements SnapshotBody {
    private final byte[] data;
    private final int offset;
    private final int length;

    private Lent(byte[] data, int offset, int length) {
      this.data = data;
      this.offset = offset;
      this.length = length;
    }

    @Override
    public int length() {
      return length;
    }

    @Override
    public void copyTo(ByteBuffer target) {
      target.put(data, offset, length);
    }

    @Override
    public byte[] toArray() {
      return Arrays.copyOfRange(data, offset, offset + length);
    }
  }

  /** A body held in an array of its own. */
  final class Bytes implements SnapshotBody {
    private final byte[] body;

    private Bytes(byte[] body) {
      this.body = body;
    }

    @Override
    public int length() {
      return body.length;
    }

    @Override
    public void copyTo(ByteBuffer target) {
      target.put(body);
    }

    @Override
    public byte[] toArray() {
      return body.clone();
    }

    /** The array itself, for the engine to store a replayed body without one more copy. */
    public byte[] array() {
      return body;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes b && Arrays.equals(body, b.body);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(body);
    }
  }
}
