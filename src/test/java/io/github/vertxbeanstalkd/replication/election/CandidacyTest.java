package io.github.vertxbeanstalkd.replication.election;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Whether a standby may take over (REPLICATION.md: every acknowledged change survives the loss of
 * the primary while a standby that acknowledged it survives). The other members answer their
 * positions over the event bus, as in a group; the clock is the real one, the waits short.
 */
class CandidacyTest {
  private static final String GROUP = "candidacy-test";
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  /** This node holds the stream of term 5 up to {@code applied}, and followed {@code primary}. */
  private static Candidacy.Stream holding(long applied, String primary) {
    long quietSince = System.nanoTime() - 5_000_000_000L;
    return new Candidacy.Stream() {
      public long copiedTerm() {
        return 5;
      }

      public long newestTerm() {
        return 5;
      }

      public long lastHeardNanos() {
        return quietSince;
      }

      public long applied() {
        return applied;
      }

      public String followedNode() {
        return primary;
      }
    };
  }

  private static GroupLock others(String... ids) {
    return recordingAlone(-1, ids);
  }

  /** The other members are {@code ids}; the group's record says the primary of {@code aloneTerm} went on alone (-1: none). */
  private static GroupLock recordingAlone(long aloneTerm, String... ids) {
    return new GroupLock() {
      public void start(Listener listener, java.util.function.BooleanSupplier mayCompete,
          java.util.function.LongSupplier ledTerm, java.util.function.LongSupplier heldTerm) {}

      public long aloneTerm() {
        return aloneTerm;
      }

      public java.util.concurrent.CompletionStage<Boolean> recordAlone(long term, boolean isAlone, long deadlineMillis) {
        throw new UnsupportedOperationException("a standby records nothing");
      }

      public String waitingFor() {
        return null;
      }

      public void release(long term) {}

      public java.util.concurrent.CompletionStage<Long> takeIds(long atLeast, long count) {
        throw new UnsupportedOperationException("a standby takes no ids");
      }

      public List<String> otherMemberIds() {
        return List.of(ids);
      }

      public void stop() {}

      public long leaseNanos() {
        return 0;
      }

      public boolean isSafe() {
        return true;
      }

      public boolean isSeated() {
        return true;
      }
    };
  }

  /** Member {@code id} answers that it applied the stream of term 5 up to {@code applied}. */
  private void answers(String id, long applied) {
    vertx.eventBus().<JsonObject>consumer(Addresses.of(GROUP, id).position(),
        m -> m.reply(new JsonObject().put("term", 5L).put("applied", applied)))
        .completion().toCompletionStage().toCompletableFuture().join();
  }

  /** Member {@code id} is there but never answers (paused, or busy). */
  private void staysSilent(String id) {
    vertx.eventBus().<JsonObject>consumer(Addresses.of(GROUP, id).position(), m -> {})
        .completion().toCompletionStage().toCompletableFuture().join();
  }

  private Candidacy candidacy(Candidacy.Stream stream, GroupLock lock) {
    return new Candidacy(vertx, GROUP, stream, lock, () -> false, () -> -1);
  }

  @Test
  void aStandbyDoesNotTakeOverFromAPrimaryThatWentOnAlone() {
    answers("other", 100);
    assertFalse(candidacy(holding(100, "old-primary"), recordingAlone(5, "other")).mayCompete(),
        "took over although the primary of term 5 acknowledged changes no standby holds");
  }

  @Test
  void aRecordOfAnOlderTermThanTheStreamHeldHoldsNothingBack() {
    // This node holds the stream of term 5 complete, which carries all that term 3 acknowledged alone.
    answers("other", 100);
    assertTrue(candidacy(holding(100, "old-primary"), recordingAlone(3, "other")).mayCompete(),
        "waited on a record of term 3 although it holds the stream of term 5");
  }

  @Test
  void theNodeThatLedTheTermThatWentOnAloneTakesOver() {
    Candidacy.Stream holdingNoCopy = new Candidacy.Stream() {
      public long copiedTerm() {
        return -1;
      }

      public long newestTerm() {
        return 5;
      }

      public long lastHeardNanos() {
        return 0;
      }

      public long applied() {
        return -1;
      }

      public String followedNode() {
        return null;
      }
    };
    assertTrue(new Candidacy(vertx, GROUP, holdingNoCopy, recordingAlone(5, "other"), () -> false, () -> 5)
        .mayCompete());
    assertFalse(new Candidacy(vertx, GROUP, holdingNoCopy, recordingAlone(5, "other"), () -> false, () -> 4)
        .mayCompete(), "the node that led term 4 does not hold what term 5 acknowledged alone");
  }

  @Test
  void aStandbyThatAppliedAtLeastAsMuchAsEveryOtherTakesOver() {
    answers("other", 100);
    assertTrue(candidacy(holding(100, "old-primary"), others("other")).mayCompete());
  }

  @Test
  void aStandbyBehindAnotherLetsItTakeOver() {
    answers("other", 101);
    assertFalse(candidacy(holding(100, "old-primary"), others("other")).mayCompete());
  }

  @Test
  void theFormerPrimaryIsNotWaitedFor() {
    staysSilent("old-primary");
    answers("other", 100);
    assertTrue(candidacy(holding(100, "old-primary"), others("old-primary", "other")).mayCompete());
  }

  @Test
  void anotherStandbyThatDoesNotAnswerIsWaitedForLongerThanAFewSeconds() throws InterruptedException {
    staysSilent("busy-standby");
    Candidacy candidacy = candidacy(holding(100, "old-primary"), others("old-primary", "busy-standby"));
    long until = System.nanoTime() + 3_000_000_000L;
    while (System.nanoTime() < until) {
      assertFalse(candidacy.mayCompete(), "took over without a standby that may hold the last acknowledged changes");
      Thread.sleep(100); // it must hold for the whole span: the span is the thing tested
    }
  }
}
