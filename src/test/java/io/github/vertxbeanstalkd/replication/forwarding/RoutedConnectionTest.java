package io.github.vertxbeanstalkd.replication.forwarding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.bus.SessionKey;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.protocol.ReplyEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A routed connection across changes of primary (REPLICATION.md, "Every node serves the protocol"):
 * the client hears one reply per command, in order, whatever happens to the sessions behind it.
 */
class RoutedConnectionTest {
  private static final long SECOND_NANOS = 1_000_000_000L;
  private static final PrimaryRoute.Primary FIRST = new PrimaryRoute.Primary(1, "n1", "fwd.1");
  private static final PrimaryRoute.Primary SECOND = new PrimaryRoute.Primary(2, "n2", "fwd.2");

  /** A session on a primary: what it was sent, and a way to answer. */
  private final class FakeLink implements Link {
    final PrimaryRoute.Primary primary;
    final List<Command> sent = new ArrayList<>();
    /** What the connection said of its commands sent here whose replies have not come. */
    int awaitingReplies;
    boolean isInputEnded;
    boolean isClosed;

    FakeLink(PrimaryRoute.Primary primary) {
      this.primary = primary;
    }

    @Override
    public PrimaryRoute.Primary primary() {
      return primary;
    }

    @Override
    public void submit(List<Command> commands) {
      sent.addAll(commands);
    }

    @Override
    public void endInput() {
      isInputEnded = true;
    }

    @Override
    public void awaitingReplies(int delta) {
      awaitingReplies += delta;
      assertTrue(awaitingReplies >= 0, "fewer than none await their replies: " + awaitingReplies);
    }

    @Override
    public void close() {
      isClosed = true;
    }

    /** Answers with these replies (a line, and a body after CR LF if any), as another node's bytes. */
    void answer(boolean isComplete, String... texts) {
      List<Reply> replies = new ArrayList<>();
      for (String text : texts) {
        replies.add(new Reply.Encoded((text + "\r\n").getBytes(StandardCharsets.ISO_8859_1)));
      }
      connection.onReply(this, new EngineReply(null, replies, isComplete, false, false));
    }

    void end() {
      connection.onReply(this, new EngineReply(null, List.of(), true, false, true));
    }
  }

  private final FakeHostClock clock = new FakeHostClock();
  private final List<FakeLink> links = new ArrayList<>();
  private final List<String> heard = new ArrayList<>();
  private boolean isComplete;
  private final RoutedConnection connection = new RoutedConnection(new Link.Opener() {
    @Override
    public Link open(PrimaryRoute.Primary primary, RoutedConnection c) {
      FakeLink link = new FakeLink(primary);
      links.add(link);
      return link;
    }

    @Override
    public void closed(RoutedConnection c) {}
  }, clock, reply -> {
    for (Reply r : reply.replies()) {
      heard.add(new String(ReplyEncoder.encode(r).getBytes(), StandardCharsets.ISO_8859_1).trim());
    }
    isComplete = reply.isComplete();
  }, new SessionKey("test", 1));

  private FakeLink link() {
    return links.get(links.size() - 1);
  }

  private void submit(Command... commands) {
    connection.submit(Arrays.asList(commands));
  }

  @Test
  void repliesReachTheClientInOrder() {
    connection.attach(FIRST);
    submit(new Command.Use("a"), Command.ListTubeUsed.INSTANCE);
    assertEquals(List.of(new Command.Use("a"), Command.ListTubeUsed.INSTANCE), link().sent);
    link().answer(false, "USING a");
    assertEquals(false, isComplete);
    link().answer(true, "USING a");
    assertEquals(List.of("USING a", "USING a"), heard);
    assertTrue(isComplete);
  }

  @Test
  void aNewPrimaryGetsTheTubesFirstThenTheWaitingReserveAndTheClientHearsOnlyTheReserve() {
    connection.attach(FIRST);
    submit(new Command.Use("u"), new Command.Watch("b"), new Command.Ignore("default"));
    link().answer(true, "USING u", "WATCHING 2", "WATCHING 1");
    submit(Command.Reserve.FOREVER);
    FakeLink first = link();

    connection.rerouteTo(SECOND);
    assertTrue(first.isClosed);
    assertEquals(List.of(new Command.Use("u"), new Command.Watch("b"), new Command.Ignore("default"),
        Command.Reserve.FOREVER), link().sent);
    link().answer(false, "USING u", "WATCHING 2", "WATCHING 1");
    assertEquals(List.of("USING u", "WATCHING 2", "WATCHING 1"), heard, "the replay is not the client's");
    link().answer(true, "RESERVED 5 1\r\nx");
    assertEquals("RESERVED 5 1\r\nx", heard.get(3));
    assertTrue(isComplete);
  }

  @Test
  void aCommandWhoseReplyWasLostAnswersInternalError() {
    connection.attach(FIRST);
    submit(new Command.Put(0, 0, 60, new byte[] {'x'}, true), Command.Stats.INSTANCE);
    connection.rerouteTo(null);
    assertEquals(List.of("INTERNAL_ERROR", "INTERNAL_ERROR"), heard);
    assertTrue(isComplete);
    connection.rerouteTo(SECOND);
    assertEquals(List.of(), link().sent, "nothing lost goes again");
  }

  @Test
  void commandsBehindAWaitingReserveAnswerInternalErrorAfterIt() {
    connection.attach(FIRST);
    submit(new Command.Reserve(30), Command.ListTubeUsed.INSTANCE);
    connection.rerouteTo(SECOND);
    assertEquals(List.of(), heard, "nothing may overtake the reserve");
    assertEquals(List.of(new Command.Reserve(30)), link().sent);
    link().answer(true, "TIMED_OUT");
    assertEquals(List.of("TIMED_OUT", "INTERNAL_ERROR"), heard);
    assertTrue(isComplete);
  }

  @Test
  void theRepliesOfASessionLeftBehindAreNotTheClients() {
    connection.attach(FIRST);
    submit(Command.Reserve.FOREVER);
    FakeLink first = link();
    connection.rerouteTo(SECOND);
    first.answer(true, "RESERVED 1 1\r\nx");
    assertEquals(List.of(), heard);
    link().answer(true, "RESERVED 2 1\r\ny");
    assertEquals(List.of("RESERVED 2 1\r\ny"), heard);
  }

  @Test
  void withoutAPrimaryCommandsWaitForOne() {
    submit(Command.ListTubeUsed.INSTANCE, Command.PutLine.FITS);
    assertEquals(List.of(), heard);
    connection.attach(FIRST);
    assertEquals(List.of(Command.ListTubeUsed.INSTANCE), link().sent, "a put line without a primary is dropped");
    link().answer(true, "USING default");
    assertEquals(List.of("USING default"), heard);
  }

  @Test
  void withoutAPrimaryForTooLongCommandsGiveUpButReservesWaitOn() {
    submit(Command.Reserve.FOREVER, Command.Stats.INSTANCE);
    connection.giveUpUnsent();
    assertEquals(List.of(), heard);
    connection.attach(FIRST);
    assertEquals(List.of(Command.Reserve.FOREVER), link().sent);
    link().answer(true, "DEADLINE_SOON");
    assertEquals(List.of("DEADLINE_SOON", "INTERNAL_ERROR"), heard);
  }

  @Test
  void aBatchSentAfterTheReplayWaitsForItsRepliesThoughTheReplayIsComplete() {
    connection.attach(FIRST);
    submit(new Command.Use("u"));
    link().answer(true, "USING u");
    connection.rerouteTo(null);
    connection.rerouteTo(SECOND);
    // The client's next batch leaves before the replay is answered; the engine, which has not
    // seen it yet, says the session is complete after the replay.
    submit(Command.ListTubeUsed.INSTANCE);
    link().answer(true, "USING u");
    assertEquals(List.of("USING u"), heard);
    link().answer(true, "USING u");
    assertEquals(List.of("USING u", "USING u"), heard);
    assertTrue(isComplete);
  }

  @Test
  void theEndOfInputDropsWhatWaitedBehindTheReserve() {
    connection.attach(FIRST);
    submit(Command.Reserve.FOREVER, Command.Stats.INSTANCE);
    connection.endInput();
    assertTrue(link().isInputEnded);
    link().answer(true, "TIMED_OUT");
    assertEquals(List.of("TIMED_OUT"), heard);
    assertTrue(isComplete);
    // And on a new primary, the end of input goes again after what is sent there.
    submit(Command.Reserve.FOREVER);
    connection.rerouteTo(SECOND);
    assertEquals(List.of(Command.Reserve.FOREVER), link().sent);
    assertTrue(link().isInputEnded);
  }

  @Test
  void aSessionThePrimaryEndedIsOpenedAgainWithItsReserve() {
    connection.attach(FIRST);
    submit(new Command.Watch("w"));
    link().answer(true, "WATCHING 2");
    submit(new Command.Reserve(60), Command.PutLine.FITS);
    link().end();
    assertTrue(connection.isDetached());
    connection.attach(FIRST);
    assertEquals(2, links.size());
    assertEquals(List.of(new Command.Watch("w"), new Command.Reserve(60)), link().sent);
  }

  @Test
  void withoutAPrimaryAReserveWithTimeoutAnswersTimedOutAtItsDeadline() {
    submit(new Command.Reserve(2));
    clock.advance(2 * SECOND_NANOS - 1);
    assertEquals(List.of(), heard);
    clock.advance(1);
    assertEquals(List.of("TIMED_OUT"), heard, "BEHAVIOURS.md 5: at the deadline, not when a primary is known");
    assertTrue(isComplete);
    connection.attach(FIRST);
    assertEquals(List.of(), link().sent, "an answered reserve does not go");
  }

  @Test
  void withoutAPrimaryAReserveWithTimeoutZeroAnswersTimedOutAtOnce() {
    submit(new Command.Reserve(0), new Command.Reserve(0));
    assertEquals(List.of("TIMED_OUT", "TIMED_OUT"), heard);
    assertTrue(isComplete);
    assertEquals(0, clock.armed());
  }

  @Test
  void withoutAPrimaryAPlainReserveWaitsOnAndNoTimerIsArmed() {
    submit(Command.Reserve.FOREVER);
    assertEquals(0, clock.armed());
    clock.advance(3600 * SECOND_NANOS);
    connection.giveUpUnsent();
    assertEquals(List.of(), heard);
    connection.attach(FIRST);
    assertEquals(List.of(Command.Reserve.FOREVER), link().sent);
  }

  @Test
  void aReserveLostWithItsPrimaryAnswersTimedOutAtTheDeadlineItHadWhenItCame() {
    connection.attach(FIRST);
    submit(new Command.Reserve(5));
    clock.advance(3 * SECOND_NANOS);
    connection.rerouteTo(null);
    clock.advance(2 * SECOND_NANOS - 1);
    assertEquals(List.of(), heard);
    clock.advance(1);
    assertEquals(List.of("TIMED_OUT"), heard);
    assertTrue(isComplete);
  }

  @Test
  void aReserveInASessionThePrimaryEndedAnswersTimedOutAtItsDeadline() {
    connection.attach(FIRST);
    submit(new Command.Reserve(3));
    clock.advance(SECOND_NANOS);
    link().end();
    clock.advance(2 * SECOND_NANOS);
    assertEquals(List.of("TIMED_OUT"), heard);
  }

  @Test
  void aReserveSentToANewPrimaryCarriesOnlyWhatIsLeftOfItsDeadlineTimeWithoutAPrimaryIncluded() {
    connection.attach(FIRST);
    submit(new Command.Reserve(10));
    clock.advance(2 * SECOND_NANOS);
    connection.rerouteTo(null);
    clock.advance(3 * SECOND_NANOS);
    connection.rerouteTo(SECOND);
    assertEquals(List.of(new Command.Reserve(5)), link().sent);
    assertEquals(0, clock.armed(), "the new primary times it");
    clock.advance(SECOND_NANOS);
    connection.rerouteTo(FIRST);
    assertEquals(List.of(new Command.Reserve(4)), link().sent, "counted once from when it came, not from each send");
    clock.advance(10 * SECOND_NANOS);
    assertEquals(List.of(), heard, "while a primary has it, its reply is the primary's");
  }

  @Test
  void aReserveWhoseDeadlinePassedBehindAnUnansweredCommandGoesWithNoTimeLeft() {
    submit(Command.Stats.INSTANCE, new Command.Reserve(1));
    clock.advance(5 * SECOND_NANOS);
    assertEquals(List.of(), heard, "nothing may overtake the stats");
    connection.attach(FIRST);
    // The primary answers it at once after the stats: with a job if one is ready then, or TIMED_OUT.
    assertEquals(List.of(Command.Stats.INSTANCE, new Command.Reserve(0)), link().sent);
  }

  @Test
  void aReserveWhoseDeadlinePassedBehindACommandThatGaveUpAnswersTimedOutRightAfterIt() {
    submit(Command.Stats.INSTANCE, new Command.Reserve(1), new Command.Reserve(20));
    clock.advance(11 * SECOND_NANOS);
    connection.giveUpUnsent();
    assertEquals(List.of("INTERNAL_ERROR", "TIMED_OUT"), heard);
    clock.advance(20 * SECOND_NANOS - 1);
    assertEquals(2, heard.size(), "the second reserve's clock started when the first was answered");
    clock.advance(1);
    assertEquals(List.of("INTERNAL_ERROR", "TIMED_OUT", "TIMED_OUT"), heard);
    assertTrue(isComplete);
  }

  @Test
  void aReserveBehindAWaitingReserveStartsItsClockWhenThatOneIsAnswered() {
    submit(new Command.Reserve(2), new Command.Reserve(3), new Command.Reserve(0));
    clock.advance(2 * SECOND_NANOS);
    assertEquals(List.of("TIMED_OUT"), heard);
    clock.advance(3 * SECOND_NANOS - 1);
    assertEquals(List.of("TIMED_OUT"), heard);
    clock.advance(1);
    assertEquals(List.of("TIMED_OUT", "TIMED_OUT", "TIMED_OUT"), heard);
    assertTrue(isComplete);
  }

  @Test
  void aReserveHeldBackByAnotherGoesToANewPrimaryWithItsWholeTimeout() {
    connection.attach(FIRST);
    submit(new Command.Reserve(2), new Command.Reserve(3));
    clock.advance(SECOND_NANOS);
    connection.rerouteTo(SECOND);
    assertEquals(List.of(new Command.Reserve(1), new Command.Reserve(3)), link().sent);
    link().answer(false, "RESERVED 7 1\r\nx");
    clock.advance(SECOND_NANOS);
    connection.rerouteTo(null);
    clock.advance(2 * SECOND_NANOS - 1);
    assertEquals(List.of("RESERVED 7 1\r\nx"), heard);
    clock.advance(1);
    assertEquals(List.of("RESERVED 7 1\r\nx", "TIMED_OUT"), heard, "3 s from the first one's answer");
  }

  @Test
  void aPrimaryFoundBeforeTheDeadlineStopsTheTimer() {
    submit(new Command.Reserve(5));
    assertEquals(1, clock.armed());
    clock.advance(SECOND_NANOS);
    connection.attach(FIRST);
    assertEquals(List.of(new Command.Reserve(4)), link().sent);
    assertEquals(0, clock.armed());
    connection.close();
    assertEquals(0, clock.armed());
  }

  @Test
  void aClosedConnectionLeavesNoTimer() {
    submit(new Command.Reserve(5));
    connection.close();
    assertEquals(0, clock.armed());
  }

  @Test
  void theLinkCountsTheCommandsSentToItUntilTheirRepliesCome() {
    connection.attach(FIRST);
    submit(new Command.Use("u"), new Command.Put(0, 0, 60, new byte[] {'x'}, true), Command.PutLine.FITS,
        Command.ListTubeUsed.INSTANCE);
    assertEquals(3, link().awaitingReplies, "a put line has no reply of its own");
    link().answer(false, "USING u", "INSERTED 1");
    assertEquals(1, link().awaitingReplies);
    link().answer(true, "USING u");
    assertEquals(0, link().awaitingReplies);
  }

  @Test
  void withoutAPrimaryNothingIsCountedUntilOneIsFound() {
    submit(Command.Reserve.FOREVER, Command.Stats.INSTANCE);
    connection.attach(FIRST);
    assertEquals(2, link().awaitingReplies);
  }

  @Test
  void aPrimaryLeftBehindCountsNothingAndTheNewOneCountsTheReplayAndTheReserveSentAgain() {
    connection.attach(FIRST);
    submit(new Command.Use("u"));
    link().answer(true, "USING u");
    submit(Command.Reserve.FOREVER, Command.Stats.INSTANCE);
    FakeLink first = link();
    assertEquals(2, first.awaitingReplies);

    connection.rerouteTo(SECOND);
    assertEquals(0, first.awaitingReplies, "their replies died with the first primary");
    assertEquals(List.of(new Command.Use("u"), Command.Reserve.FOREVER), link().sent);
    assertEquals(2, link().awaitingReplies, "the tube given again and the reserve");
    link().answer(false, "USING u");
    assertEquals(1, link().awaitingReplies);

    connection.rerouteTo(null);
    assertEquals(0, link().awaitingReplies);
  }

  @Test
  void aSessionThePrimaryEndedCountsNothing() {
    connection.attach(FIRST);
    submit(new Command.Reserve(60), Command.Stats.INSTANCE);
    link().end();
    assertEquals(0, link().awaitingReplies);
  }

  @Test
  void whatTheEndOfInputDroppedIsNoLongerCounted() {
    connection.attach(FIRST);
    submit(Command.Reserve.FOREVER, Command.Stats.INSTANCE);
    connection.endInput();
    link().answer(true, "TIMED_OUT");
    assertEquals(0, link().awaitingReplies);
  }

  @Test
  void aClosedConnectionCountsNothing() {
    connection.attach(FIRST);
    submit(Command.Reserve.FOREVER, Command.Stats.INSTANCE);
    connection.close();
    assertTrue(link().isClosed);
    assertEquals(0, link().awaitingReplies);
  }

  @Test
  void aWaitingReserveGoesAgainWithWhatIsLeftOfItsTimeout() {
    assertEquals(new Command.Reserve(4), RoutedConnection.remainingOf(new Command.Reserve(5), 0, 1_200_000_000L));
    assertEquals(new Command.Reserve(5), RoutedConnection.remainingOf(new Command.Reserve(5), 0, 1));
    assertEquals(new Command.Reserve(0), RoutedConnection.remainingOf(new Command.Reserve(5), 0, 6 * SECOND_NANOS));
    assertEquals(Command.Reserve.FOREVER, RoutedConnection.remainingOf(Command.Reserve.FOREVER, 0, 6 * SECOND_NANOS));
    assertEquals(new Command.Reserve(-1, true),
        RoutedConnection.remainingOf(new Command.Reserve(-1, true), 0, SECOND_NANOS));
    assertEquals(new Command.Reserve(4294967295L, true),
        RoutedConnection.remainingOf(new Command.Reserve(4294967295L, true), 0, 0));
  }
}
