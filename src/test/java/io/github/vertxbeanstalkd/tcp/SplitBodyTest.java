package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.ServerConfig;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A body that arrives in many reads of every size is stored whole, byte for byte. */
class SplitBodyTest extends DeployedServerTest {

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withMaxJobSize(LargeBodyTest.LIMIT);
  }

  @Test
  void aBodySentInPiecesOfEverySizeIsStoredIntact() throws IOException {
    TestClient c = connect();
    c.socket().setTcpNoDelay(true);
    byte[] body = LargeBodyTest.randomBody(300_007, 3);
    c.sendRaw("put 0 0 60 " + body.length + "\r\n");
    int[] sizes = {1, 2, 3, 1023, 1, 1024, 7, 1025, 5000, 1, 20_000, 13, 65_536, 2};
    int at = 0;
    for (int i = 0; at < body.length; i++) {
      int end = Math.min(body.length, at + sizes[i % sizes.length]);
      c.sendRaw(Arrays.copyOfRange(body, at, end));
      at = end;
    }
    c.sendRaw("\r").sendRaw("\nput 0 0 60 3\r\nab").sendRaw("c\r\n");
    c.expect("INSERTED 1", "INSERTED 2");
    c.send("peek 1").expect("FOUND 1 " + body.length).expectBytes(body).expect("");
    c.send("peek 2").expect("FOUND 2 3", "abc");
  }
}
