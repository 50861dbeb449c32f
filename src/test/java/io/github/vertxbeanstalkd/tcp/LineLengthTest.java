package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.vertxbeanstalkd.TestClient;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * BEHAVIOURS.md 1: at most 224 bytes a line, CR LF included; a longer one costs one BAD_FORMAT. End
 * to end over a socket; {@link CommandReaderTest} splits lines at every position around the limit.
 */
class LineLengthTest extends DeployedServerTest {
  static final String NAME_200 = "n".repeat(200);

  @Test
  void aLineOf222BytesBeforeCrLfIsAccepted() {
    TestClient c = connect();
    c.send("watch " + NAME_200).expect("WATCHING 2");
    String line = "pause-tube " + NAME_200 + " 0000000000";
    assertEquals(222, line.length());
    c.send(line).expect("PAUSED");
  }

  @Test
  void a300ByteLineIsOneBadFormatAndTheNextCommandWorks() {
    TestClient c = connect();
    c.send("a".repeat(300), "list-tube-used").expect("BAD_FORMAT", "USING default");
    c.send("list-tube-used").expect("USING default");
  }

  @Test
  void aLineSpanningSeveralBufferLoadsIsStillOneBadFormat() {
    TestClient c = connect();
    c.send("put 0 0 60 1 " + "9".repeat(1_000), "list-tube-used").expect("BAD_FORMAT", "USING default");
    c.send("list-tube-used").expect("USING default");
  }

  @Test
  void anOverlongLineReadOneByteAtATimeIsOneBadFormat() {
    assumeTrue(ServerReads.canBeObserved(), "needs Linux's /proc/net/tcp to see what the server has read");
    TestClient c = connect();
    ServerReads.sendOneBytePerRead(c, ("b".repeat(300) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    c.send("list-tube-used").expect("BAD_FORMAT", "USING default");
  }

  @Test
  void anOverlongLineWhoseCrLfIsSplitAcrossReadsIsOneBadFormat() {
    assumeTrue(ServerReads.canBeObserved(), "needs Linux's /proc/net/tcp to see what the server has read");
    TestClient c = connect();
    c.sendRaw("c".repeat(300) + "\r");
    ServerReads.awaitAllRead(c.socket());
    c.sendRaw("\nlist-tube-used\r\n");
    c.expect("BAD_FORMAT", "USING default");
  }

  @Test
  void aValidCommandAfterAnOverlongLineInTheSameWriteRuns() {
    TestClient c = connect();
    c.sendRaw("d".repeat(500) + "\r\nput 0 0 60 2\r\nok\r\npeek 1\r\n");
    c.expect("BAD_FORMAT", "INSERTED 1", "FOUND 1 2", "ok");
  }
}
