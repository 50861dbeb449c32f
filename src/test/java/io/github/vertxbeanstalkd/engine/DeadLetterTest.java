package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.kickJob;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.release;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static io.github.vertxbeanstalkd.engine.Commands.watch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

/**
 * A tube's maxReserves: a job back from a TTR timeout or a release with its reserves at the limit
 * is buried instead of made ready, in its deadLetterTube if set; a kick starts a fresh count.
 */
class DeadLetterTest {
  final EngineFixture f = new EngineFixture();
  final Session producer = f.open();
  final Session worker = f.open();

  static TubeSettings maxReserves(long reserves, String deadLetterTube) {
    return new TubeSettings(null, null, reserves, deadLetterTube);
  }

  @Test
  void aReleaseAtTheLimitAnswersBuriedAndBuriesTheJob() {
    f.engine.setTubeSettings("default", maxReserves(2, null));
    f.one(producer, put("job"));
    f.one(worker, reserve());
    assertEquals("RELEASED", f.one(worker, release(1, 5, 0)));
    f.one(worker, reserve());
    assertEquals("BURIED", f.one(worker, release(1, 5, 0)));
    assertEquals("buried", f.state(1));
    assertEquals("tube 'default'", "tube '" + f.statsJob(1).get("tube") + "'");
    assertEquals("default", f.engine.deadLetteredFrom(1));
  }

  @Test
  void aTtrTimeoutAtTheLimitBuriesTheJob() {
    f.engine.setTubeSettings("default", maxReserves(1, null));
    f.one(producer, put(0, 0, 5, "job"));
    f.one(worker, reserve());
    f.passSeconds(5);
    assertEquals("buried", f.state(1));
    assertEquals("1", f.statsJob(1).get("timeouts"));
    assertEquals("1", f.statsJob(1).get("buries"));
  }

  @Test
  void belowTheLimitAJobComesBackReady() {
    f.engine.setTubeSettings("default", maxReserves(3, null));
    f.one(producer, put(0, 0, 5, "job"));
    f.one(worker, reserve());
    f.passSeconds(5);
    assertEquals("ready", f.state(1));
    f.one(worker, reserve());
    assertEquals("RELEASED", f.one(worker, release(1, 0, 0)));
    assertEquals("ready", f.state(1));
  }

  @Test
  void withADeadLetterTubeTheJobMovesThereBuried() {
    f.engine.setTubeSettings("emails", maxReserves(1, "emails-dead"));
    f.send(producer, use("emails"), put("job"));
    f.send(worker, watch("emails"));
    f.one(worker, reserve());
    assertEquals("BURIED", f.one(worker, release(1, 0, 0)));
    assertEquals("emails-dead", f.statsJob(1).get("tube"));
    assertEquals("buried", f.state(1));
    assertEquals("1", f.statsTube("emails-dead").get("current-jobs-buried"));
    assertEquals("0", f.statsTube("emails").get("current-jobs-buried"));
    assertEquals("emails", f.engine.deadLetteredFrom(1));
    assertEquals(new EngineSnapshot.TubeRuleCounts(0, 0, 1), f.engine.snapshot().tubeRules().get("emails"));
  }

  @Test
  void theDeadLetterTubeCountsTheJobsBodyBytes() {
    f.engine.setTubeSettings("emails", maxReserves(1, "dead"));
    f.engine.setTubeSettings("dead", new TubeSettings(null, 3L, null, null));
    f.send(producer, use("emails"), put("abc"));
    f.send(worker, watch("emails"));
    f.one(worker, reserve());
    f.one(worker, release(1, 0, 0));
    // A dead letter is never refused; the tube it fills refuses puts instead.
    f.one(producer, use("dead"));
    assertEquals("OUT_OF_MEMORY", f.one(producer, put("x")));
  }

  @Test
  void aKickedJobStartsAFreshCount() {
    f.engine.setTubeSettings("default", maxReserves(2, null));
    f.one(producer, put("job"));
    f.one(worker, reserve());
    f.one(worker, release(1, 0, 0));
    f.one(worker, reserve());
    assertEquals("BURIED", f.one(worker, release(1, 0, 0)));
    assertEquals("KICKED", f.one(producer, kickJob(1)));
    assertEquals("", f.engine.deadLetteredFrom(1));
    f.one(worker, reserve());
    assertEquals("RELEASED", f.one(worker, release(1, 0, 0)));
    f.one(worker, reserve());
    assertEquals("BURIED", f.one(worker, release(1, 0, 0)));
    assertEquals("4", f.statsJob(1).get("reserves"));
  }

  @Test
  void statsJobKeepsTheKeysOf112() {
    EngineFixture plain = new EngineFixture();
    Session p = plain.open();
    plain.one(p, put("job"));
    f.engine.setTubeSettings("default", maxReserves(1, null));
    f.one(producer, put("job"));
    f.one(worker, reserve());
    f.one(worker, release(1, 0, 0));
    assertEquals(new ArrayList<>(plain.statsJob(1).keySet()), new ArrayList<>(f.statsJob(1).keySet()));
  }

  @Test
  void withoutSettingsReleasesNeverBury() {
    f.one(producer, put("job"));
    for (int i = 0; i < 50; i++) {
      f.one(worker, reserve());
      assertEquals("RELEASED", f.one(worker, release(1, 0, 0)));
    }
    assertEquals("ready", f.state(1));
  }
}
