package io.github.vertxbeanstalkd.persistence;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.github.vertxbeanstalkd.persistence.BinlogRecord.JobSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A log directory written the way the writer lays it out (a header and a HighWater first in each
 * segment, then frames, perhaps zeros ahead), from records the fuzzer chooses, with job bodies that
 * may hold well-formed frames of their own; and the jobs the log holds, as replayed by the model.
 */
final class FuzzedLog {
  /** Ids of jobs that exist only as frames inside bodies: never a job the log held. */
  static final long DECOY_IDS = 1_000_000;
  private static final List<String> TUBES = List.of("default", "t", "a-b", "x".repeat(200));

  /** One record and where it was written. */
  record Placed(BinlogRecord record, int segment, int offset, int bytes) {}

  final List<Placed> placed = new ArrayList<>();
  final List<byte[]> segments = new ArrayList<>();

  FuzzedLog(FuzzedDataProvider data) {
    ByteArrayOutputStream segment = null;
    long nextId = 1;
    List<Long> ids = new ArrayList<>();
    int records = data.consumeInt(0, 40);
    for (int i = 0; i < records; i++) {
      if (segment == null || data.consumeInt(0, 7) == 0) {
        if (segment != null) {
          segments.add(segment.toByteArray());
        }
        segment = new ByteArrayOutputStream();
        segment.writeBytes(SegmentFile.header(segments.size() + 1).array());
        place(segment, new BinlogRecord.HighWater(nextId));
      }
      long id = ids.isEmpty() || data.consumeBoolean() ? nextId : ids.get(data.consumeInt(0, ids.size() - 1));
      BinlogRecord r = switch (id == nextId ? 0 : data.consumeInt(0, 5)) {
        case 0 -> job(data, id);
        case 1 -> new BinlogRecord.Delete(id);
        case 2 -> new BinlogRecord.Release(id, data.consumeInt(), data.consumeInt(0, 3),
            data.consumeLong(), counters(data));
        case 3 -> new BinlogRecord.Bury(id, data.consumeInt(), counters(data));
        case 4 -> new BinlogRecord.Kick(id, counters(data));
        default -> new BinlogRecord.Reserve(id, counters(data));
      };
      if (id == nextId) {
        ids.add(nextId++);
      }
      place(segment, r);
    }
    if (segment != null) {
      // The newest segment may have zeros written ahead of its records, as with fsync always.
      segment.writeBytes(new byte[data.consumeInt(0, 3) * 512]);
      segments.add(segment.toByteArray());
    }
  }

  private void place(ByteArrayOutputStream segment, BinlogRecord r) {
    byte[] frame = RecordCodec.encode(r).array();
    placed.add(new Placed(r, segments.size() + 1, segment.size(), frame.length));
    segment.writeBytes(frame);
  }

  private static JobSnapshot job(FuzzedDataProvider data, long id) {
    SnapshotState state = data.pickValue(SnapshotState.values());
    long readyAt = state == SnapshotState.DELAYED ? 1_700_000_060_000L : 0;
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(data.consumeBytes(data.consumeInt(0, 64)));
    for (int n = data.consumeInt(0, 2); n > 0; n--) {
      // Client data may hold frames: a decoy job, or changes and a delete of real jobs.
      long target = data.consumeBoolean() ? DECOY_IDS + data.consumeInt(0, 9) : data.consumeLong(1, id);
      BinlogRecord decoy = data.consumeBoolean() ? new BinlogRecord.Delete(target)
          : new JobSnapshot(DECOY_IDS + data.consumeInt(0, 9), "decoy", SnapshotState.READY, 1, 0, 0, 1, 1,
              JobCounters.ZERO, data.consumeBytes(8));
      body.writeBytes(RecordCodec.encode(decoy).array());
      body.writeBytes(data.consumeBytes(data.consumeInt(0, 8)));
    }
    return new JobSnapshot(id, data.pickValue(TUBES), state, data.consumeInt(), data.consumeInt(0, 100), readyAt,
        data.consumeInt(1, 1000), 1_700_000_000_000L + id, counters(data), body.toByteArray());
  }

  private static JobCounters counters(FuzzedDataProvider data) {
    return new JobCounters(data.consumeInt(0, 3), 0, data.consumeInt(0, 3), 0, 0);
  }

  void writeTo(Path dir) throws IOException {
    for (int i = 0; i < segments.size(); i++) {
      Files.write(SegmentFile.path(dir, i + 1), segments.get(i));
    }
  }

  /** The jobs after replaying the records for which {@code isKept} says yes, in id order. */
  List<JobSnapshot> jobs(java.util.function.IntPredicate isKept) {
    Map<Long, JobSnapshot> live = new TreeMap<>();
    for (int i = 0; i < placed.size(); i++) {
      if (isKept.test(i)) {
        apply(live, placed.get(i).record());
      }
    }
    return new ArrayList<>(live.values());
  }

  /** The jobs after each prefix of the records, from none to all. */
  List<List<JobSnapshot>> prefixStates() {
    List<List<JobSnapshot>> states = new ArrayList<>();
    Map<Long, JobSnapshot> live = new TreeMap<>();
    states.add(List.of());
    for (Placed p : placed) {
      apply(live, p.record());
      states.add(new ArrayList<>(live.values()));
    }
    return states;
  }

  private static void apply(Map<Long, JobSnapshot> live, BinlogRecord r) {
    if (r instanceof JobSnapshot j) {
      live.put(j.id(), j);
    } else if (r instanceof BinlogRecord.Delete d) {
      live.remove(d.id());
    } else if (!(r instanceof BinlogRecord.HighWater)) {
      live.computeIfPresent(Replay.idOf(r), (id, j) -> Replay.changed(j, r));
    }
  }

  /** True if the header or a record of segment {@code segment} (1-based) ends at {@code offset}. */
  boolean isRecordEnd(int segment, int offset) {
    return offset == SegmentFile.HEADER_BYTES
        || placed.stream().anyMatch(p -> p.segment() == segment && p.offset() + p.bytes() == offset);
  }

  /** The record whose frame holds byte {@code offset} of segment {@code segment} (1-based), or -1. */
  int recordAt(int segment, int offset) {
    for (int i = 0; i < placed.size(); i++) {
      Placed p = placed.get(i);
      if (p.segment() == segment && offset >= p.offset() && offset < p.offset() + p.bytes()) {
        return i;
      }
    }
    return -1;
  }
}
