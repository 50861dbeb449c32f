package io.github.vertxbeanstalkd.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine-turn JFR event: recorded when a recording enables it, with what ran and its CPU time. */
class EngineTurnTest {
  @TempDir
  Path dir;

  @Test
  void aTurnOfAMillisecondOrMoreIsRecordedWithWhatRanAndItsCpuTime() throws Exception {
    Path file = dir.resolve("turns.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("vertxbeanstalkd.EngineTurn").withThreshold(Duration.ofMillis(1));
      recording.start();
      EngineTurn turn = EngineTurn.start();
      // A turn that works on the CPU for 3 ms: its CPU time is most of its length.
      long until = System.nanoTime() + 3_000_000;
      while (System.nanoTime() < until) {
        Thread.onSpinWait();
      }
      turn.end(EngineTurnTest.class);
      EngineTurn.start().end("short");
      recording.stop();
      recording.dump(file);
    }
    // The short turn is left out, unless the thread waited a millisecond for a CPU inside it.
    List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
        .filter(e -> "EngineTurnTest".equals(e.getString("what"))).toList();
    assertEquals(1, events.size(), "the 3 ms turn");
    RecordedEvent e = events.get(0);
    assertTrue(e.getDuration().toNanos() >= 3_000_000, "wall " + e.getDuration());
    long cpuNanos = e.getLong("cpuNanos");
    assertTrue(cpuNanos > 0 && cpuNanos <= e.getDuration().toNanos() + 1_000_000,
        "cpu " + cpuNanos + " ns, wall " + e.getDuration().toNanos() + " ns");
  }
}
