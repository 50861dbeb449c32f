package io.github.vertxbeanstalkd.replication.forwarding;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import java.util.ArrayList;
import java.util.List;

/**
 * A routed connection's used tube and watch list, kept as the engine keeps them (BEHAVIOURS.md 9)
 * from the replies to its use, watch and ignore commands, and the commands that give a new
 * session on another primary the same ones, in the same order.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
final class ConnectionTubes {
  private static final String DEFAULT = "default";

  private String used = DEFAULT;
  private final ArrayList<String> watched = new ArrayList<>(List.of(DEFAULT));

  String used() {
    return used;
  }

  List<String> watched() {
    return List.copyOf(watched);
  }

  /** {@code command} was answered {@code reply}: what it changed, if it succeeded. */
  void heard(Command command, Reply reply) {
    if (command instanceof Command.Use use) {
      if (says(reply, "USING")) {
        used = use.tube();
      }
    } else if (command instanceof Command.Watch watch) {
      if (says(reply, "WATCHING") && !watched.contains(watch.tube())) {
        watched.add(watch.tube());
      }
    } else if (command instanceof Command.Ignore ignore) {
      int at = watched.indexOf(ignore.tube());
      if (says(reply, "WATCHING") && at >= 0) {
        // BEHAVIOURS.md 9: the last entry moves into the hole.
        String last = watched.remove(watched.size() - 1);
        if (at < watched.size()) {
          watched.set(at, last);
        }
      }
    }
  }

  /**
   * What makes a new connection's session (using and watching default) use and watch what this one
   * does, the watch list in the same order: the first tube is watched and default ignored before the
   * others are watched, so default lands wherever it was.
   */
  List<Command> replay() {
    List<Command> commands = new ArrayList<>(watched.size() + 2);
    if (!used.equals(DEFAULT)) {
      commands.add(new Command.Use(used));
    }
    if (!watched.get(0).equals(DEFAULT)) {
      commands.add(new Command.Watch(watched.get(0)));
      commands.add(new Command.Ignore(DEFAULT));
    }
    for (int i = 1; i < watched.size(); i++) {
      commands.add(new Command.Watch(watched.get(i)));
    }
    return commands;
  }

  /** Whether a use, watch or ignore succeeded: {@code USING} or {@code WATCHING}, as a value or as another node's bytes. */
  static boolean succeeded(Reply reply) {
    return says(reply, "USING") || says(reply, "WATCHING");
  }

  private static boolean says(Reply reply, String word) {
    if (reply instanceof Reply.Encoded encoded) {
      return encoded.startsWith(word + " ");
    }
    if (reply instanceof Reply.Using) {
      return word.equals("USING");
    }
    return reply instanceof Reply.Number number && number.word().equals(word);
  }
}
