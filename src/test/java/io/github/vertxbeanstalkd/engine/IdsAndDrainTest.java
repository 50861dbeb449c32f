package io.github.vertxbeanstalkd.engine;

import static io.github.vertxbeanstalkd.engine.Commands.delete;
import static io.github.vertxbeanstalkd.engine.Commands.jobTooBig;
import static io.github.vertxbeanstalkd.engine.Commands.put;
import static io.github.vertxbeanstalkd.engine.Commands.putWithoutCrlf;
import static io.github.vertxbeanstalkd.engine.Commands.reserve;
import static io.github.vertxbeanstalkd.engine.Commands.use;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 4 and 12: which puts use up a job id, and drain mode. */
class IdsAndDrainTest {
  final EngineFixture f = new EngineFixture();
  final Session client = f.open();

  @Test
  void jobIdsStartAtOneAndAreGlobalAcrossTubes() {
    assertEquals(List.of("INSERTED 1", "USING x", "INSERTED 2", "INSERTED 3"),
        f.send(client, put("a"), use("x"), put("b"), put("c")));
  }

  @Test
  void aPutAnsweredExpectedCrlfUsesUpAnIdButStoresNothing() {
    assertEquals(List.of("EXPECTED_CRLF", "INSERTED 2"), f.send(client, putWithoutCrlf("bad"), put("good")));
    var stats = f.stats();
    assertEquals("1", stats.get("total-jobs"));
    assertEquals("2", stats.get("cmd-put"));
    assertEquals("NOT_FOUND", f.one(client, delete(1)));
  }

  @Test
  void aPutAnsweredJobTooBigUsesNoIdButIsCounted() {
    assertEquals(List.of("JOB_TOO_BIG", "INSERTED 1"), f.send(client, jobTooBig(), put("good")));
    assertEquals("2", f.stats().get("cmd-put"));
  }

  @Test
  void inDrainModeAPutAnswersDrainingAndOtherCommandsStillWork() {
    f.send(client, put("before"));
    f.engine.setDraining(true);
    assertTrue(f.engine.isDraining());
    assertEquals(List.of("DRAINING", "RESERVED 1 before", "DELETED"),
        f.send(client, put("refused"), reserve(), delete(1)));
    var stats = f.stats();
    assertEquals("true", stats.get("draining"));
    assertEquals("1", stats.get("total-jobs"));
    assertEquals("2", stats.get("cmd-put"));
  }

  @Test
  void inDrainModeARefusedPutStillUsesUpAnId() {
    f.send(client, put("one"));
    f.engine.setDraining(true);
    f.send(client, put("refused"), put("refused"));
    f.engine.setDraining(false);
    // The two refused puts used up ids 2 and 3.
    assertEquals("INSERTED 4", f.one(client, put("after")));
  }

  @Test
  void inDrainModeABadTrailerIsStillExpectedCrlf() {
    f.engine.setDraining(true);
    assertEquals(List.of("EXPECTED_CRLF", "JOB_TOO_BIG"), f.send(client, putWithoutCrlf("x"), jobTooBig()));
  }

  @Test
  void statsShowsNotDrainingByDefault() {
    assertEquals("false", f.stats().get("draining"));
  }
}
