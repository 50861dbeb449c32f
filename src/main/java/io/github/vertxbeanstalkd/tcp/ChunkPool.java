package io.github.vertxbeanstalkd.tcp;

/**
 * The TCP front's spare input chunks, lent to its connections and given back when read and no
 * longer needed: input is copied into them from the socket's buffers, so a steady load reads into
 * the same few arrays again and again instead of a new one per read. One pool per front verticle,
 * used on its thread only; at most {@link #MAX_SPARE_CHUNKS} are kept, the rest go to the collector.
 */
final class ChunkPool {
  /**
   * A chunk's bytes. A put's body lies in the chunks it arrived in until it is answered (see
   * {@link InputChunks}), so this is what each connection with a put in flight holds at least.
   */
  static final int CHUNK_BYTES = 8 * 1024;
  /** Spare chunks kept: 4 MiB. */
  static final int MAX_SPARE_CHUNKS = 512;

  private byte[][] spare = new byte[16][];
  private int count;

  byte[] take() {
    if (count == 0) {
      return new byte[CHUNK_BYTES];
    }
    byte[] chunk = spare[--count];
    spare[count] = null;
    return chunk;
  }

  void give(byte[] chunk) {
    if (count == MAX_SPARE_CHUNKS) {
      return;
    }
    if (count == spare.length) {
      spare = java.util.Arrays.copyOf(spare, count * 2);
    }
    spare[count++] = chunk;
  }

  /** Chunks kept spare now. */
  int spareCount() {
    return count;
  }
}
