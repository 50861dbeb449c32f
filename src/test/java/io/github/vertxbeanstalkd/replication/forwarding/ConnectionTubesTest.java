package io.github.vertxbeanstalkd.replication.forwarding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A routed connection's tubes, learnt from replies, and their replay: a fresh session that runs the
 * replay uses and watches what the connection did, the watch list in the same order.
 */
class ConnectionTubesTest {
  /** BEHAVIOURS.md 9, written out again: watch appends, ignore moves the last entry into the hole. */
  private static final class Model {
    String used = "default";
    final List<String> watched = new ArrayList<>(List.of("default"));

    Reply run(Command c) {
      if (c instanceof Command.Use use) {
        used = use.tube();
        return new Reply.Using(use.tube());
      }
      if (c instanceof Command.Watch watch) {
        if (!watched.contains(watch.tube())) {
          watched.add(watch.tube());
        }
        return Reply.Number.watching(watched.size());
      }
      Command.Ignore ignore = (Command.Ignore) c;
      int at = watched.indexOf(ignore.tube());
      if (at >= 0 && watched.size() == 1) {
        return Reply.Word.NOT_IGNORED;
      }
      if (at >= 0) {
        String last = watched.remove(watched.size() - 1);
        if (at < watched.size()) {
          watched.set(at, last);
        }
      }
      return Reply.Number.watching(watched.size());
    }
  }

  @Test
  void theReplayGivesAFreshSessionTheSameTubesInTheSameOrder() {
    Random random = new Random(19);
    String[] names = {"default", "a", "b", "c", "d", "e"};
    for (int round = 0; round < 2_000; round++) {
      Model original = new Model();
      ConnectionTubes tubes = new ConnectionTubes();
      int steps = random.nextInt(20);
      for (int i = 0; i < steps; i++) {
        String name = names[random.nextInt(names.length)];
        Command c = switch (random.nextInt(3)) {
          case 0 -> new Command.Use(name);
          case 1 -> new Command.Watch(name);
          default -> new Command.Ignore(name);
        };
        Reply r = original.run(c);
        // Half of the replies as another node's bytes, as a standby hears them.
        tubes.heard(c, random.nextBoolean() ? r : new Reply.Encoded(io.github.vertxbeanstalkd.protocol.ReplyEncoder
            .encode(r).getBytes()));
      }
      assertEquals(original.used, tubes.used());
      assertEquals(original.watched, tubes.watched());
      Model fresh = new Model();
      for (Command c : tubes.replay()) {
        Reply r = fresh.run(c);
        assertEquals(true, ConnectionTubes.succeeded(r), c + " in the replay answered " + r);
      }
      assertEquals(original.used, fresh.used, "round " + round);
      assertEquals(original.watched, fresh.watched, "round " + round);
    }
  }

  @Test
  void aFailedCommandChangesNothing() {
    ConnectionTubes tubes = new ConnectionTubes();
    tubes.heard(new Command.Use("a"), Reply.Word.OUT_OF_MEMORY);
    tubes.heard(new Command.Watch("b"), new Reply.Encoded("OUT_OF_MEMORY\r\n".getBytes()));
    tubes.heard(new Command.Ignore("default"), Reply.Word.NOT_IGNORED);
    tubes.heard(new Command.Use("c"), Reply.Word.INTERNAL_ERROR);
    assertEquals("default", tubes.used());
    assertEquals(List.of("default"), tubes.watched());
    assertEquals(List.of(), tubes.replay());
  }
}
