package io.github.vertxbeanstalkd.protocol;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A reply's size hint bounds its encoded size: the TCP front counts the replies a client leaves
 * unread by it (tcp.HeldReplies), so a hint far below the truth lets such a client hold more
 * than the heap's share for them.
 */
class ReplySizeHintTest {
  @Test
  void aLongTubeListIsCountedAtItsSize() {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 38_000; i++) {
      names.add("tube-" + i);
    }
    Reply.TubeNames list = new Reply.TubeNames(names);

    int encoded = ReplyEncoder.encode(list).length();

    assertTrue(ReplyEncoder.sizeHint(list) >= encoded, ReplyEncoder.sizeHint(list) + " < " + encoded);
    assertTrue(ReplyEncoder.sizeHint(list) < encoded + 64, ReplyEncoder.sizeHint(list) + " vs " + encoded);
  }

  @Test
  void anEmptyListToo() {
    Reply.TubeNames list = new Reply.TubeNames(List.of());

    assertTrue(ReplyEncoder.sizeHint(list) >= ReplyEncoder.encode(list).length());
  }
}
