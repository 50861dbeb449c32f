package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A snapshot's body given as a source, not an array, is framed byte for byte as the array would be. */
class SnapshotBodyTest {

  /** A body held in two arrays, as one that came in two reads. */
  private static SnapshotBody inTwoParts(byte[] body) {
    byte[] first = java.util.Arrays.copyOf(body, body.length / 2);
    byte[] second = java.util.Arrays.copyOfRange(body, body.length / 2, body.length);
    return new SnapshotBody() {
      @Override
      public int length() {
        return body.length;
      }

      @Override
      public void copyTo(ByteBuffer target) {
        target.put(first).put(second);
      }
    };
  }

  @Test
  void aBodySourceIsFramedAsItsBytesAre() {
    byte[] body = new byte[5000];
    new Random(5).nextBytes(body);
    JobSnapshot fromArray = new JobSnapshot(9, "t", SnapshotState.DELAYED, 3, 10, 1_700_000_010_000L, 60,
        1_700_000_000_000L, JobCounters.ZERO, body);
    JobSnapshot fromSource = new JobSnapshot(9, "t", SnapshotState.DELAYED, 3, 10, 1_700_000_010_000L, 60,
        1_700_000_000_000L, JobCounters.ZERO, inTwoParts(body));
    byte[] frame = RecordCodec.encode(fromSource).array();
    assertArrayEquals(RecordCodec.encode(fromArray).array(), frame);
    assertEquals(RecordCodec.frameBytes(fromArray), RecordCodec.frameBytes(fromSource));
    RecordCodec.Frame read = RecordCodec.read(frame, 0, frame.length);
    assertEquals(fromArray, read.record());
    assertEquals(fromSource, read.record());
    assertArrayEquals(body, ((JobSnapshot) read.record()).body().toArray());
  }
}
