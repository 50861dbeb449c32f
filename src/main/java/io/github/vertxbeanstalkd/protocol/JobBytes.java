package io.github.vertxbeanstalkd.protocol;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A put's body as it was read: one or more ranges of byte arrays, shared, not copied. The bytes
 * are lent to the engine with the put: nobody writes them until the put is answered, and the
 * engine copies what it keeps before then, straight to where it goes ({@link #copyTo}): the job
 * store, and an array of the binlog record's own (which its writer reads later, on its thread).
 * The TCP front reads the next commands into the same arrays once the put is answered.
 * {@link #toArray()} is for those that need an array.
 */
public abstract sealed class JobBytes permits JobBytes.Range, JobBytes.Ranges {
  public static final JobBytes EMPTY = new Range(new byte[0], 0, 0);

  private final int length;

  private JobBytes(int length) {
    this.length = length;
  }

  /** The array itself, not a copy: the caller must never modify it afterwards. */
  public static JobBytes of(byte[] body) {
    return of(body, 0, body.length);
  }

  /** {@code length} bytes of {@code array} from {@code offset}, not copied. */
  public static JobBytes of(byte[] array, int offset, int length) {
    if (offset < 0 || length < 0 || offset + length > array.length) {
      throw new IndexOutOfBoundsException(offset + "+" + length + " of " + array.length);
    }
    return length == 0 ? EMPTY : new Range(array, offset, length);
  }

  /** Collects the ranges of a body of {@code length} bytes, in order. */
  public static Builder builder(int length) {
    return new Builder(length);
  }

  public final int length() {
    return length;
  }

  /** Puts every byte into {@code target} at its position, which moves on by {@link #length()}. */
  public abstract void copyTo(ByteBuffer target);

  /** Copies every byte into {@code target} from {@code at}. */
  public abstract void copyTo(byte[] target, int at);

  /** Appends every byte to {@code out}, range by range, without an array of their own. */
  public abstract void appendTo(io.vertx.core.buffer.Buffer out);

  /** Ranges the bytes are held in (one when they arrived in one read). */
  public abstract int pieces();

  /** A fresh array holding the bytes. */
  public final byte[] toArray() {
    byte[] copy = new byte[length];
    copyTo(copy, 0);
    return copy;
  }

  @Override
  public final boolean equals(Object o) {
    return o instanceof JobBytes b && b.length == length && Arrays.equals(b.toArray(), toArray());
  }

  @Override
  public final int hashCode() {
    return Arrays.hashCode(toArray());
  }

  @Override
  public final String toString() {
    return "JobBytes[" + length + " bytes]";
  }

  /** The bytes in one range: the usual case, and the smallest object. */
  static final class Range extends JobBytes {
    private final byte[] array;
    private final int offset;

    private Range(byte[] array, int offset, int length) {
      super(length);
      this.array = array;
      this.offset = offset;
    }

    @Override
    public void copyTo(ByteBuffer target) {
      target.put(array, offset, length());
    }

    @Override
    public void copyTo(byte[] target, int at) {
      System.arraycopy(array, offset, target, at, length());
    }

    @Override
    public void appendTo(io.vertx.core.buffer.Buffer out) {
      out.appendBytes(array, offset, length());
    }

    @Override
    public int pieces() {
      return length() == 0 ? 0 : 1;
    }
  }

  /** The bytes in several ranges, in order. */
  static final class Ranges extends JobBytes {
    private final byte[][] arrays;
    private final int[] offsets;
    private final int[] lengths;

    private Ranges(byte[][] arrays, int[] offsets, int[] lengths, int length) {
      super(length);
      this.arrays = arrays;
      this.offsets = offsets;
      this.lengths = lengths;
    }

    @Override
    public void copyTo(ByteBuffer target) {
      for (int i = 0; i < arrays.length; i++) {
        target.put(arrays[i], offsets[i], lengths[i]);
      }
    }

    @Override
    public void copyTo(byte[] target, int at) {
      for (int i = 0; i < arrays.length; i++) {
        System.arraycopy(arrays[i], offsets[i], target, at, lengths[i]);
        at += lengths[i];
      }
    }

    @Override
    public void appendTo(io.vertx.core.buffer.Buffer out) {
      for (int i = 0; i < arrays.length; i++) {
        out.appendBytes(arrays[i], offsets[i], lengths[i]);
      }
    }

    @Override
    public int pieces() {
      return arrays.length;
    }
  }

  /** Gathers a body's ranges as they are read; {@link #build()} once they add up to its length. */
  public static final class Builder {
    private final int length;
    private byte[][] arrays = new byte[1][];
    private int[] offsets = new int[1];
    private int[] lengths = new int[1];
    private int count;
    private int filled;

    private Builder(int length) {
      this.length = length;
    }

    /** Bytes still missing. */
    public int remaining() {
      return length - filled;
    }

    /** Adds {@code n} bytes of {@code array} from {@code offset}, not copied; never written afterwards. */
    public Builder add(byte[] array, int offset, int n) {
      if (n < 0 || n > remaining() || offset < 0 || offset + n > array.length) {
        throw new IndexOutOfBoundsException(offset + "+" + n + " of " + array.length + ", " + remaining() + " missing");
      }
      if (n == 0) {
        return this;
      }
      if (count == arrays.length) {
        arrays = Arrays.copyOf(arrays, count * 2);
        offsets = Arrays.copyOf(offsets, count * 2);
        lengths = Arrays.copyOf(lengths, count * 2);
      }
      arrays[count] = array;
      offsets[count] = offset;
      lengths[count] = n;
      count++;
      filled += n;
      return this;
    }

    public JobBytes build() {
      if (filled != length) {
        throw new IllegalStateException(remaining() + " bytes missing");
      }
      if (length == 0) {
        return EMPTY;
      } else if (count == 1) {
        return new Range(arrays[0], offsets[0], length);
      }
      return count == arrays.length ? new Ranges(arrays, offsets, lengths, length)
          : new Ranges(Arrays.copyOf(arrays, count), Arrays.copyOf(offsets, count), Arrays.copyOf(lengths, count), length);
    }
  }
}
