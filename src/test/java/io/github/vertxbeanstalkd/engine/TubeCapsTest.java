package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.delete;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A tube's maxJobs and maxBytes: a put past either answers OUT_OF_MEMORY and is counted. */
class TubeCapsTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();

  static TubeSettings maxJobs(long jobs) {
    return new TubeSettings(jobs, null, null, null);
  }

  static TubeSettings maxBytes(long bytes) {
    return new TubeSettings(null, bytes, null, null);
  }

  @Test
  void aPutPastMaxJobsAnswersOutOfMemory() {
    assertTrue(f.engine.setTubeSettings("emails", maxJobs(2)));
    f.one(producer, use("emails"));
    assertEquals("INSERTED 1", f.one(producer, put("a")));
    assertEquals("INSERTED 2", f.one(producer, put("b")));
    assertEquals("OUT_OF_MEMORY", f.one(producer, put("c")));
    assertEquals("2", f.statsTube("emails").get("current-jobs-ready"));
  }

  @Test
  void aPutPastMaxBytesAnswersOutOfMemoryCountingBodyBytesOnly() {
    f.engine.setTubeSettings("emails", maxBytes(10));
    f.one(producer, use("emails"));
    assertEquals("INSERTED 1", f.one(producer, put("123456")));
    assertEquals("OUT_OF_MEMORY", f.one(producer, put("12345")));
    assertEquals("INSERTED 3", f.one(producer, put("1234")));
    assertEquals("OUT_OF_MEMORY", f.one(producer, put("1")));
  }

  @Test
  void aDeleteMakesRoomAgain() {
    f.engine.setTubeSettings("emails", maxJobs(1));
    f.one(producer, use("emails"));
    f.one(producer, put("a"));
    assertEquals("OUT_OF_MEMORY", f.one(producer, put("b")));
    assertEquals("DELETED", f.one(producer, delete(1)));
    assertEquals("INSERTED 3", f.one(producer, put("c")));
  }

  @Test
  void theDefaultsOfStarApplyToEveryTubeAndATubesOwnKeysWin() {
    f.engine.setTubeSettings(TubeSettings.EVERY_TUBE, maxJobs(1));
    f.engine.setTubeSettings("big", maxJobs(3));
    f.one(producer, put("a"));
    assertEquals("OUT_OF_MEMORY", f.one(producer, put("b")));
    f.one(producer, use("big"));
    f.send(producer, put("c"), put("d"), put("e"));
    assertEquals("OUT_OF_MEMORY", f.one(producer, put("f")));
    assertEquals(new TubeSettings(3L, null, null, null), f.engine.effectiveTubeSettings("big"));
  }

  @Test
  void aCapOfZeroIsNoCapAndOverridesTheDefault() {
    f.engine.setTubeSettings(TubeSettings.EVERY_TUBE, maxJobs(1));
    f.engine.setTubeSettings("default", maxJobs(0));
    f.send(producer, put("a"), put("b"));
    assertEquals("2", f.statsTube("default").get("current-jobs-ready"));
  }

  @Test
  void emptySettingsRemoveTheTubesEntry() {
    f.engine.setTubeSettings("default", maxJobs(1));
    f.engine.setTubeSettings("default", TubeSettings.NONE);
    assertEquals(Map.of(), f.engine.tubeSettings());
    f.send(producer, put("a"), put("b"));
    assertEquals("2", f.statsTube("default").get("current-jobs-ready"));
  }

  @Test
  void theSettingsOutliveTheTube() {
    f.engine.setTubeSettings("emails", maxJobs(1));
    Session other = f.open();
    f.one(other, use("emails"));
    f.one(other, use("default"));
    assertFalse(f.listTubes().contains("emails"));
    f.one(producer, use("emails"));
    f.one(producer, put("a"));
    assertEquals("OUT_OF_MEMORY", f.one(producer, put("b")));
  }

  @Test
  void refusalsAreCountedPerTubeAndReason() {
    f.engine.setTubeSettings("default", new TubeSettings(1L, 4L, null, null));
    assertEquals("OUT_OF_MEMORY", f.one(producer, put("12345")));
    EngineSnapshot.TubeRuleCounts counts = f.engine.snapshot().tubeRules().get("default");
    assertEquals(new EngineSnapshot.TubeRuleCounts(0, 1, 0), counts);
    assertEquals("INSERTED 2", f.one(producer, put("1")));
    assertEquals("OUT_OF_MEMORY", f.one(producer, put("2")));
    assertEquals(new EngineSnapshot.TubeRuleCounts(1, 1, 0), f.engine.snapshot().tubeRules().get("default"));
  }

  @Test
  void withoutSettingsNothingIsCountedOrRefused() {
    for (int i = 0; i < 100; i++) {
      f.one(producer, put("job"));
    }
    assertEquals(Map.of(), f.engine.snapshot().tubeRules());
    assertEquals(Map.of(), f.engine.tubeSettings());
  }
}
