package io.github.vertxbeanstalkd.tcp;

import io.netty.buffer.ByteBuf;

/**
 * A connection's input, copied from the socket's buffers into chunks lent by the front's
 * {@link ChunkPool}, in order, and read from the first chunk with unread bytes. A put's body is not
 * copied again: it goes to the engine as ranges of these chunks ({@link
 * io.github.vertxbeanstalkd.protocol.JobBytes}), which the engine copies into the job store while
 * it runs the put. So a chunk goes back to the pool only once every byte in it is read and no put
 * whose body lies in it still waits for its reply:
 *
 * <ul>
 *   <li>while a body is arriving, the chunks from the one it starts in are pinned ({@link
 *       #pinBody()});
 *   <li>once the put is read, they are held until the batch that carries it is answered ({@link
 *       #holdBody()}): the batch sent next, since the connection reads nothing while one is out;
 *   <li>a chunk of command lines alone goes back as soon as it is read.
 * </ul>
 *
 * A connection that waits, idles or blocks in a reserve therefore holds no chunk.
 */
final class InputChunks {
  private final ChunkPool pool;
  private byte[][] arrays = new byte[4][];
  /** Bytes of each chunk read so far. */
  private int[] reads = new int[4];
  /** Bytes of each chunk filled so far. */
  private int[] fills = new int[4];
  /** The batch (by number) that must be answered before the chunk may go back; 0 for none. */
  private long[] heldUntil = new long[4];
  private int head;
  private int count;
  /** The chunk read now, counted from the head; chunks before it are full and read. */
  private int readPos;
  /** The number of the head chunk since the connection began: pins are by number. */
  private long headNumber;
  private long unread;
  private boolean isPinned;
  private long pinnedFrom;
  /** Batches sent to the engine, and answered. */
  private long dispatched;
  private long answered;

  InputChunks(ChunkPool pool) {
    this.pool = pool;
  }

  /** Copies {@code data}'s readable bytes; the caller still owns (and releases) {@code data}. */
  void add(ByteBuf data) {
    int n = data.readableBytes();
    unread += n;
    while (n > 0) {
      int tail = count == 0 ? -1 : slot(count - 1);
      if (tail < 0 || fills[tail] == arrays[tail].length) {
        tail = append(pool.take());
      }
      int k = Math.min(n, arrays[tail].length - fills[tail]);
      data.readBytes(arrays[tail], fills[tail], k);
      fills[tail] += k;
      n -= k;
    }
  }

  boolean isEmpty() {
    return unread == 0;
  }

  /** Bytes not read yet. */
  long bytes() {
    return unread;
  }

  /** The chunk read now; its unread bytes are {@code [from(), end())}. Only while not {@link #isEmpty()}. */
  byte[] array() {
    return arrays[slot(readPos)];
  }

  int from() {
    return reads[slot(readPos)];
  }

  int end() {
    return fills[slot(readPos)];
  }

  /** The first {@code n} unread bytes of the chunk read now have been read. */
  void consume(int n) {
    int i = slot(readPos);
    reads[i] += n;
    unread -= n;
    if (reads[i] == fills[i]) {
      if (fills[i] == arrays[i].length) {
        readPos++;
      }
      giveBackReadChunks();
    }
  }

  /** A put's body begins with the next unread byte: what it is read from stays. */
  void pinBody() {
    isPinned = true;
    pinnedFrom = headNumber + Math.min(readPos, Math.max(0, count - 1));
  }

  /**
   * The body pinned last is read whole, and its put goes in the next batch: its chunks stay until
   * that batch is answered.
   */
  void holdBody() {
    if (!isPinned) {
      return;
    }
    isPinned = false;
    long until = dispatched + 1;
    for (int p = (int) Math.max(0, pinnedFrom - headNumber); p < count; p++) {
      heldUntil[slot(p)] = until;
    }
  }

  /** The commands read so far went to the engine, as one batch. */
  void batchDispatched() {
    dispatched++;
  }

  /** The batch sent last is answered: the chunks its puts were read from may go back. */
  void batchAnswered() {
    answered = dispatched;
    giveBackReadChunks();
  }

  /**
   * The connection closed: every chunk is let go at once, to the collector rather than the pool,
   * since a batch still out may have lent the engine a body in one. A closed connection can stay
   * reachable a while (its channel's pipeline still refers to it), and a client's reset makes Netty
   * read all the socket had buffered first, whether reading was stopped or not: 2,200 clients that
   * pipelined without reading and then closed ended a server with -Xmx128m, each keeping about
   * 100 KiB after its close.
   */
  void drop() {
    java.util.Arrays.fill(arrays, null);
    java.util.Arrays.fill(reads, 0);
    java.util.Arrays.fill(fills, 0);
    java.util.Arrays.fill(heldUntil, 0);
    head = 0;
    count = 0;
    readPos = 0;
    unread = 0;
    isPinned = false;
  }

  /** Chunks held now, read or not. */
  int chunks() {
    return count;
  }

  private void giveBackReadChunks() {
    while (count > 0) {
      int h = head;
      if (reads[h] != fills[h] || heldUntil[h] > answered || (isPinned && headNumber >= pinnedFrom)) {
        return;
      }
      pool.give(arrays[h]);
      arrays[h] = null;
      reads[h] = 0;
      fills[h] = 0;
      heldUntil[h] = 0;
      head = (head + 1) & (arrays.length - 1);
      count--;
      headNumber++;
      if (readPos > 0) {
        readPos--;
      }
    }
  }

  private int append(byte[] chunk) {
    if (count == arrays.length) {
      grow();
    }
    int s = slot(count);
    arrays[s] = chunk;
    reads[s] = 0;
    fills[s] = 0;
    heldUntil[s] = 0;
    count++;
    return s;
  }

  private int slot(int position) {
    return (head + position) & (arrays.length - 1);
  }

  private void grow() {
    int n = arrays.length;
    byte[][] a = new byte[n * 2][];
    int[] r = new int[n * 2];
    int[] f = new int[n * 2];
    long[] h = new long[n * 2];
    for (int i = 0; i < count; i++) {
      int s = slot(i);
      a[i] = arrays[s];
      r[i] = reads[s];
      f[i] = fills[s];
      h[i] = heldUntil[s];
    }
    arrays = a;
    reads = r;
    fills = f;
    heldUntil = h;
    head = 0;
  }
}
