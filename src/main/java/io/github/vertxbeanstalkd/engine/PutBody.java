package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.SnapshotBody;
import io.github.vertxbeanstalkd.protocol.JobBytes;
import io.github.vertxbeanstalkd.store.BodyStore;
import java.nio.ByteBuffer;

/**
 * A new job's body as the front read it, seen by the job store and by the binlog: each copies it
 * once, straight from the front's buffers (the store on the engine thread, the binlog on its
 * writer's thread; {@link JobBytes} is never written after the hand-off, so both may read it).
 */
final class PutBody implements BodyStore.Writer, SnapshotBody {
  private final JobBytes bytes;

  PutBody(JobBytes bytes) {
    this.bytes = bytes;
  }

  @Override
  public int length() {
    return bytes.length();
  }

  @Override
  public void writeTo(ByteBuffer target) {
    bytes.copyTo(target);
  }

  @Override
  public void copyTo(ByteBuffer target) {
    bytes.copyTo(target);
  }
}
