package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.JobBytes;
import io.github.vertxbeanstalkd.store.BodyStore;
import java.nio.ByteBuffer;

/** A new job's body as the front read it, copied into the job store straight from the front's buffers. */
final class PutBody implements BodyStore.Writer {
  private final JobBytes bytes;

  PutBody(JobBytes bytes) {
    this.bytes = bytes;
  }

  @Override
  public void writeTo(ByteBuffer target) {
    bytes.copyTo(target);
  }
}
