package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.vertxbeanstalkd.TestClient;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 1 and 4: how bytes become commands, whatever the reads look like, end to end over a socket. */
class FramingTest extends DeployedServerTest {

  @Test
  void pipelinedCommandsInOneWriteAreAnsweredInOrder() {
    TestClient c = connect();
    int n = 2_000;
    StringBuilder script = new StringBuilder();
    for (int i = 1; i <= n; i++) {
      String body = "job-" + i;
      script.append("put ").append(i % 7).append(" 0 60 ").append(body.length()).append("\r\n")
          .append(body).append("\r\n");
      script.append("peek ").append(i).append("\r\n");
    }
    script.append("delete 1\r\nlist-tube-used\r\n");
    c.sendRaw(script.toString());
    for (int i = 1; i <= n; i++) {
      String body = "job-" + i;
      c.expect("INSERTED " + i, "FOUND " + i + " " + body.length(), body);
    }
    c.expect("DELETED", "USING default");
  }

  @Test
  void oneBytePerReadIsReassembled() {
    assumeTrue(ServerReads.canBeObserved(), "needs Linux's /proc/net/tcp to see what the server has read");
    TestClient c = connect();
    // Each reply is awaited before the next command starts: while a batch is with the engine the
    // reader holds its input, and the bytes it held would reach the parser together.
    sendOneBytePerRead(c, "use frag\r\n");
    c.expect("USING frag");
    sendOneBytePerRead(c, "put 1 0 60 4\r\na\r\nb\r\n");
    c.expect("INSERTED 1");
    sendOneBytePerRead(c, "peek 1\r\n");
    c.expect("FOUND 1 4", "a", "b");
    sendOneBytePerRead(c, "list-tube-used\r\n");
    c.expect("USING frag");
  }

  @Test
  void aBodyMayHoldCrLfAndAll256ByteValues() {
    TestClient c = connect();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (int i = 0; i < 256; i++) {
      body.write(i);
    }
    body.writeBytes("\r\nput 0 0 60 1\r\nx\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    byte[] bytes = body.toByteArray();
    c.sendRaw("put 0 0 60 " + bytes.length + "\r\n").sendRaw(bytes).sendRaw("\r\n");
    c.expect("INSERTED 1");
    c.send("peek 1").expect("FOUND 1 " + bytes.length).expectBytes(bytes).expect("");
    c.send("reserve").expect("RESERVED 1 " + bytes.length).expectBytes(bytes).expect("");
    c.send("peek 2").expect("NOT_FOUND");
  }

  @Test
  void aZeroLengthBodyIsAllowed() {
    TestClient c = connect();
    c.send("put 0 0 60 0", "").expect("INSERTED 1");
    c.send("peek 1").expect("FOUND 1 0", "");
  }

  @Test
  void aBadTrailerIsExpectedCrlfAndTheRestIsReadAsCommands() {
    TestClient c = connect();
    // bytes + 2 = 5 bytes are read as the body ("abcde"); the CR LF after it is an empty line.
    c.sendRaw("put 0 0 60 3\r\nabcde\r\nlist-tube-used\r\n");
    c.expect("EXPECTED_CRLF", "UNKNOWN_COMMAND", "USING default");
    c.send("put 0 0 60 1", "x").expect("INSERTED 2");
  }

  @Test
  void aBareLfDoesNotEndALine() {
    TestClient c = connect();
    c.sendRaw("list-tube-used\n\r\nlist-tube-used\r\n");
    c.expect("BAD_FORMAT", "USING default");
  }

  @Test
  void aCrLfSplitAcrossReadsEndsTheLine() {
    assumeTrue(ServerReads.canBeObserved(), "needs Linux's /proc/net/tcp to see what the server has read");
    TestClient c = connect();
    c.sendRaw("list-tube-used\r");
    ServerReads.awaitAllRead(c.socket());
    c.sendRaw("\nlist-tube-used\r\n");
    c.expect("USING default", "USING default");
  }

  private static void sendOneBytePerRead(TestClient c, String text) {
    ServerReads.sendOneBytePerRead(c, text.getBytes(StandardCharsets.ISO_8859_1));
  }
}
