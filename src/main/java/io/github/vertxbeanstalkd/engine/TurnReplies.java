package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.EngineReplies;
import io.github.vertxbeanstalkd.bus.EngineReply;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The engine's replies of the current turn, gathered per front (by its reply address) as the engine
 * delivers them, and sent when the turn ends: one message per front, however many of its sessions
 * got replies. Runs on the engine's thread; its lists stay from turn to turn.
 */
final class TurnReplies implements ReplySink {
  /** Reply-less sends, alike every time: one options object, not one per message. */
  private static final DeliveryOptions SEND = new DeliveryOptions();

  /** Each front's replies produced during the current turn, by its reply address; entries stay. */
  private final Map<String, FrontReplies> fronts = new HashMap<>();
  /** The fronts that have replies this turn, in the order they got their first. */
  private final ArrayList<FrontReplies> outgoing = new ArrayList<>();

  /** One front's replies of the current turn, gathered in a list that stays from turn to turn. */
  private static final class FrontReplies {
    final String address;
    final ArrayList<EngineReply> replies = new ArrayList<>();

    FrontReplies(String address) {
      this.address = address;
    }
  }

  @Override
  public void deliver(EngineReply reply) {
    String address = reply.key().front();
    FrontReplies front = fronts.get(address);
    if (front == null) {
      front = new FrontReplies(address);
      fronts.put(address, front);
    }
    if (front.replies.isEmpty()) {
      outgoing.add(front);
    }
    front.replies.add(reply);
  }

  /**
   * Sends what this turn produced, each front's replies in the order the engine delivered them.
   *
   * @param isReceiptWanted whether the engine wants to hear what that front received
   * @param answerBeforeNanos when the lease these replies were made under runs out (System.nanoTime),
   *     or {@link EngineReplies#NO_DEADLINE}
   */
  void send(EventBus bus, Predicate<String> isReceiptWanted, long answerBeforeNanos) {
    for (int i = 0; i < outgoing.size(); i++) {
      FrontReplies front = outgoing.get(i);
      // What goes is an immutable copy of the exact size, read later on the front's thread.
      bus.send(front.address, new EngineReplies(copyOf(front.replies), isReceiptWanted.test(front.address),
          answerBeforeNanos), SEND);
      front.replies.clear();
    }
    outgoing.clear();
  }

  /** An immutable copy; for one or two elements, without List.copyOf's intermediate array. */
  private static <T> List<T> copyOf(ArrayList<T> list) {
    return switch (list.size()) {
      case 0 -> List.of();
      case 1 -> List.of(list.get(0));
      case 2 -> List.of(list.get(0), list.get(1));
      default -> List.copyOf(list);
    };
  }
}
