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
public final class JobBytes {
  public static final JobBytes EMPTY = new JobBytes(new byte[0], 0, 0);

  /** The one range, when there is one (the usual case: the body came in one read). */
  private final byte[] array;
  private final int offset;
  /** The ranges, when there are several; null otherwise. */
  private final byte[][] arrays;
  private final int[] offsets;
  private final int[] lengths;
  private final int length;

  private JobBytes(byte[] array, int offset, int length) {
    this.array = array;
    this.offset = offset;
    this.arrays = null;
    this.offsets = null;
    this.lengths = null;
    this.length = length;
  }

  private JobBytes(byte[][] arrays, int[] offsets, int[] lengths, int length) {
    this.array = null;
    this.offset = 0;
    this.arrays = arrays;
    this.offsets = offsets;
    this.lengths = lengths;
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
    return length == 0 ? EMPTY : new JobBytes(array, offset, length);
  }

  /** Collects the ranges of a body of {@code length} bytes, in order. */
  public static Builder builder(int length) {
    return new Builder(length);
  }

  public int length() {
    return length;
  }

  /** Puts every byte into {@code target} at its position, which moves on by {@link #length()}. */
  public void copyTo(ByteBuffer target) {
    if (arrays == null) {
      target.put(array, offset, length);
      return;
    }
    for (int i = 0; i < arrays.length; i++) {
      target.put(arrays[i], offsets[i], lengths[i]);
    }
  }

  /** Copies every byte into {@code target} from {@code at}. */
  public void copyTo(byte[] target, int at) {
    if (arrays == null) {
      System.arraycopy(array, offset, target, at, length);
      return;
    }
    for (int i = 0; i < arrays.length; i++) {
      System.arraycopy(arrays[i], offsets[i], target, at, lengths[i]);
      at += lengths[i];
    }
  }

  /** Appends every byte to {@code out}, range by range, without an array of their own. */
  public void appendTo(io.vertx.core.buffer.Buffer out) {
    if (arrays == null) {
      out.appendBytes(array, offset, length);
      return;
    }
    for (int i = 0; i < arrays.length; i++) {
      out.appendBytes(arrays[i], offsets[i], lengths[i]);
    }
  }

  /** A fresh array holding the bytes. */
  public byte[] toArray() {
    byte[] copy = new byte[length];
    copyTo(copy, 0);
    return copy;
  }

  /** Ranges the bytes are held in (one when they arrived in one read). */
  public int pieces() {
    return arrays == null ? (length == 0 ? 0 : 1) : arrays.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JobBytes b && b.length == length && Arrays.equals(b.toArray(), toArray());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(toArray());
  }

  @Override
  public String toString() {
    return "JobBytes[" + length + " bytes]";
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
        return new JobBytes(arrays[0], offsets[0], length);
      }
      return count == arrays.length ? new JobBytes(arrays, offsets, lengths, length)
          : new JobBytes(Arrays.copyOf(arrays, count), Arrays.copyOf(offsets, count), Arrays.copyOf(lengths, count), length);
    }
  }
}
