package io.github.vertxbeanstalkd.server;

import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;

/**
 * A connection's input not read yet, in order: the byte arrays behind the socket's Buffers, held
 * by reference. Vert.x 5 hands a NetSocket handler a heap copy of each read that the Buffer alone
 * owns (NetSocketImpl, VertxHandler.safeBuffer), so its array can be read in place and a put's
 * body handed on as ranges of it (see {@link io.github.vertxbeanstalkd.protocol.JobBytes}) with no
 * copy. The public Buffer API can only copy bytes out, so this one class reaches the array
 * through {@link BufferInternal#getByteBuf()}; a Buffer without an accessible array is copied.
 */
final class InputChunks {
  private byte[][] arrays = new byte[4][];
  private int[] froms = new int[4];
  private int[] ends = new int[4];
  private int head;
  private int count;
  private long bytes;

  /** Holds on to {@code data}'s bytes: nobody may write them afterwards. */
  void add(Buffer data) {
    int length = data.length();
    byte[] array;
    int from;
    ByteBuf buf = data instanceof BufferInternal internal ? internal.getByteBuf() : null;
    if (buf != null && buf.hasArray() && buf.readableBytes() == length) {
      array = buf.array();
      from = buf.arrayOffset() + buf.readerIndex();
    } else {
      array = data.getBytes();
      from = 0;
    }
    if (count == arrays.length) {
      grow();
    }
    int slot = (head + count) & (arrays.length - 1);
    arrays[slot] = array;
    froms[slot] = from;
    ends[slot] = from + length;
    count++;
    bytes += length;
  }

  boolean isEmpty() {
    return count == 0;
  }

  /** Bytes held. */
  long bytes() {
    return bytes;
  }

  /** The first chunk's array; its unread bytes are {@code [from(), end())}. */
  byte[] array() {
    return arrays[head];
  }

  int from() {
    return froms[head];
  }

  int end() {
    return ends[head];
  }

  /** The first {@code n} bytes of the first chunk have been read. */
  void consume(int n) {
    froms[head] += n;
    bytes -= n;
    if (froms[head] == ends[head]) {
      arrays[head] = null;
      head = (head + 1) & (arrays.length - 1);
      count--;
    }
  }

  private void grow() {
    int n = arrays.length;
    byte[][] a = new byte[n * 2][];
    int[] f = new int[n * 2];
    int[] e = new int[n * 2];
    for (int i = 0; i < count; i++) {
      int slot = (head + i) & (n - 1);
      a[i] = arrays[slot];
      f[i] = froms[slot];
      e[i] = ends[slot];
    }
    arrays = a;
    froms = f;
    ends = e;
    head = 0;
  }
}
