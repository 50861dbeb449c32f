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

  @Test
  void aJobFramedFromItsFieldsIsTheFrameOfItsSnapshotAndReadsBackTheSame() {
    List<BinlogRecord> records = new ArrayList<>();
    FrameBuffer frames = new FrameBuffer(64);
    SnapshotState[] states = SnapshotState.values();
    for (long id = 1; id <= 40; id++) {
      SnapshotState state = states[(int) id % states.length];
      byte[] body = ("body " + id + " ").repeat((int) id * 11).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
      String tube = id % 2 == 0 ? "tube-" + id : "\u00e9t\u00e9";
      JobCounters counters = new JobCounters((int) id, 2, 3, 4, (int) id * 5);
      long readyAt = state == SnapshotState.DELAYED ? 1_700_000_000_000L + id : 0;
      records.add(new BinlogRecord.JobSnapshot(id * 1_000_003L, tube, state, (int) id * 7, (int) id, readyAt, 60,
          1_600_000_000_000L + id, counters, SnapshotBody.of(body)));
      frames.addJob(id * 1_000_003L, state, (int) id * 7, (int) id, 60, readyAt, 1_600_000_000_000L + id,
          counters.reserves(), counters.timeouts(), counters.releases(), counters.buries(), counters.kicks(), tube,
          body.length, (target, at) -> System.arraycopy(body, 0, target, at, body.length));
    }
    byte[] framed = Arrays.copyOf(frames.array(), frames.length());
    assertArrayEquals(RecordFrames.encode(records), framed);
    ReceivedFrames received = ReceivedFrames.decode(framed);
    for (int i = 0; i < received.size(); i++) {
      BinlogRecord.JobSnapshot expected = (BinlogRecord.JobSnapshot) records.get(i);
      JobFrame job = received.job(i);
      assertEquals(expected.id(), job.id());
      assertEquals(expected.state(), job.state());
      assertEquals(expected.priority(), job.priority());
      assertEquals(expected.delaySeconds(), job.delaySeconds());
      assertEquals(expected.ttrSeconds(), job.ttrSeconds());
      assertEquals(expected.readyAtEpochMillis(), job.readyAtEpochMillis());
      assertEquals(expected.createdEpochMillis(), job.createdEpochMillis());
      assertEquals(expected.counters().kicks(), job.counter(4));
      assertEquals(expected.counters().reserves(), job.counter(0));
      assertEquals(true, job.isTube(expected.tube()));
      assertEquals(expected.tube(), job.tube());
      assertArrayEquals(expected.body().toArray(),
          Arrays.copyOfRange(job.data(), job.bodyOffset(), job.bodyOffset() + job.bodyLength()));
      assertEquals(expected, received.record(i));
    }
  }
}
