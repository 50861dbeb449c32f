package io.github.vertxbeanstalkd.replication.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.cluster.Waits;
import io.vertx.core.Future;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A primary with too few standbys acknowledges alone only once the group's record holds that
 * decision (REPLICATION.md, whenTooFewStandbys "serve"), and gives it back once a standby holds
 * what it acknowledged alone: a real server and the real Shipper, the record faked.
 */
class AloneDecisionTest {
  private static final long WAIT_MILLIS = 30_000;

  @TempDir
  Path dir;
  private ShippingPair pair;
  /** What the primary asked the record, in order: "alone" or "back". */
  private final List<String> written = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() throws Exception {
    if (pair != null) {
      pair.close();
    }
  }

  @Test
  void aPrimaryThatCannotRecordThatItGoesOnAloneAcknowledgesNothingAlone() throws Exception {
    pair = new ShippingPair(dir).startPrimary((term, isAlone, deadlineMillis) -> {
      written.add(isAlone ? "alone" : "back");
      return Future.failedFuture("the CP Subsystem's majority is out of reach");
    });
    try (TestClient client = TestClient.open(pair.primaryPort(), 10_000)) {
      client.send("put 0 0 60 1", "x");
      assertEquals("INTERNAL_ERROR", client.readLine());
    }
    assertEquals("alone", written.get(0));
  }

  @Test
  void aPrimaryAcknowledgesAloneOnceTheRecordHoldsItAndGivesItBackOnceAStandbyHoldsTheChanges()
      throws Exception {
    pair = new ShippingPair(dir).startPrimary((term, isAlone, deadlineMillis) -> {
      written.add(isAlone ? "alone" : "back");
      return Future.succeededFuture(true);
    });
    try (TestClient client = TestClient.open(pair.primaryPort(), 10_000)) {
      client.send("put 0 0 60 1", "x");
      assertEquals("INSERTED 1", client.readLine());
    }
    assertEquals(List.of("alone"), written);
    pair.startStandbyServer().follow();
    Waits.until(() -> written.size() == 2 ? true : null, WAIT_MILLIS, () -> "the record was not given back: " + written);
    assertEquals(List.of("alone", "back"), written);
  }
}
