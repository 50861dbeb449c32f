package io.github.vertxbeanstalkd.persistence;

import static io.github.vertxbeanstalkd.persistence.LogHarness.job;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameBufferTest {
  @Test
  void framesAddedPastTheFirstArrayAreTheRecordsFramedBackToBack() {
    List<BinlogRecord> records = new ArrayList<>();
    records.add(new BinlogRecord.HighWater(7));
    for (long id = 1; id <= 50; id++) {
      records.add(job(id, "x".repeat((int) id * 37)));
    }
    records.add(new BinlogRecord.Delete(3));
    FrameBuffer frames = new FrameBuffer(100);
    records.forEach(frames::add);
    byte[] expected = RecordFrames.encode(records);
    assertEquals(records.size(), frames.records());
    assertEquals(expected.length, frames.length());
    assertArrayEquals(expected, Arrays.copyOf(frames.array(), frames.length()));
  }
}
