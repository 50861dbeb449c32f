package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.ServerConfig;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Bodies larger than one 64 KiB read chunk, with a raised max-job-size. */
class LargeBodyTest extends DeployedServerTest {
  static final int LIMIT = 1_000_000;

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withMaxJobSize(LIMIT);
  }

  @Test
  void aPutLargerThan64KibIsStoredAndReturnedIntact() {
    TestClient c = connect();
    byte[] body = randomBody(200_003, 1);
    c.sendRaw("put 0 0 60 " + body.length + "\r\n").sendRaw(body).sendRaw("\r\nlist-tube-used\r\n");
    c.expect("INSERTED 1", "USING default");
    c.send("reserve").expect("RESERVED 1 " + body.length).expectBytes(body).expect("");
  }

  @Test
  void aBodyOfExactlyTheRaisedLimitSentInOddChunksIsStored() throws InterruptedException {
    TestClient c = connect();
    byte[] body = randomBody(LIMIT, 2);
    c.sendRaw("put 0 0 60 " + LIMIT + "\r\n");
    for (int at = 0; at < body.length; at += 7_919) {
      c.sendRaw(Arrays.copyOfRange(body, at, Math.min(body.length, at + 7_919)));
    }
    c.sendRaw("\r\n");
    c.expect("INSERTED 1");
    c.send("peek 1").expect("FOUND 1 " + LIMIT).expectBytes(body).expect("");
  }

  @Test
  void aPutOverTheRaisedLimitIsJobTooBig() {
    TestClient c = connect();
    c.sendRaw("put 0 0 60 " + (LIMIT + 1) + "\r\n").sendRaw(new byte[LIMIT + 1]).sendRaw("\r\n");
    c.expect("JOB_TOO_BIG");
    c.send("list-tube-used").expect("USING default");
  }

  /** Random bytes with CR LF pairs sprinkled in, so a body never looks like a clean line. */
  static byte[] randomBody(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    for (int i = 0; i + 1 < n; i += 1_000) {
      b[i] = '\r';
      b[i + 1] = '\n';
    }
    return b;
  }
}
