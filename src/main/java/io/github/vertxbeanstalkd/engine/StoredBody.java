package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.SnapshotBody;
import java.nio.ByteBuffer;

/**
 * A job's body where the store holds it, read only when a frame is written: for a snapshot framed
 * in the same engine turn (a copy slice), never one handed to another thread or kept.
 */
record StoredBody(JobTable table, int slot) implements SnapshotBody {
  @Override
  public int length() {
    return table.bodyLength(slot);
  }

  @Override
  public void copyTo(ByteBuffer target) {
    if (!target.hasArray()) {
      target.put(table.body(slot));
      return;
    }
    int length = length();
    table.copyBody(slot, target.array(), target.arrayOffset() + target.position());
    target.position(target.position() + length);
  }
}
