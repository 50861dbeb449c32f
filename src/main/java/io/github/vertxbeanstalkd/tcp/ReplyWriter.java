package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.protocol.ReplyEncoder;
import java.util.ArrayDeque;

/**
 * A connection's output half: its replies on their way to the socket, in the order the engine gave
 * them. They wait as references (a body is not copied) while the channel's write queue is full, and
 * are encoded into the channel's buffer a chunk at a time while it takes more; each reply is released
 * as soon as its bytes are in that buffer, so a pooled body can hold the next reserve's.
 */
final class ReplyWriter {
  private static final int WRITE_CHUNK_BYTES = 64 * 1024;

  private final ArrayDeque<Reply> unwritten = new ArrayDeque<>();
  /** The sum of {@link ReplyEncoder#sizeHint} over {@link #unwritten}. */
  private long unwrittenBytesHint;

  void add(Reply reply) {
    unwritten.add(reply);
    unwrittenBytesHint += ReplyEncoder.sizeHint(reply);
  }

  boolean isEmpty() {
    return unwritten.isEmpty();
  }

  /** Writes what {@code io} takes now; what it does not take waits for its next {@code onWritable}. */
  void writeTo(ChannelIo io) {
    while (!unwritten.isEmpty() && io.isWritable()) {
      // Room for what is waiting, up to a chunk and the reply that crosses it (a large body whole).
      io.begin((int) Math.min(unwrittenBytesHint, WRITE_CHUNK_BYTES + ReplyEncoder.sizeHint(unwritten.peek())));
      do {
        Reply r = unwritten.poll();
        unwrittenBytesHint -= ReplyEncoder.sizeHint(r);
        ReplyEncoder.encode(r, io);
        // Its bytes are in the channel's buffer now, whatever happens to the job: a pooled body
        // can hold the next reserve's.
        r.release();
      } while (!unwritten.isEmpty() && io.written() < WRITE_CHUNK_BYTES);
      io.send();
    }
  }

  /** What the replies take until the client reads them: those waiting here and the channel's unsent bytes. */
  long bytes(ChannelIo io) {
    return unwrittenBytesHint + io.pendingWriteBytes();
  }

  /** The connection closed: what waits is dropped unwritten. */
  void clear() {
    unwritten.clear();
    unwrittenBytesHint = 0;
  }
}
