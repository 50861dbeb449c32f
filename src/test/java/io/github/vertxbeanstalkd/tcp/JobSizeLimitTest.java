package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.ServerConfig;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** BEHAVIOURS.md 4: max-job-size is inclusive, and JOB_TOO_BIG swallows exactly bytes + 2. */
class JobSizeLimitTest extends DeployedServerTest {

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withMaxJobSize(10);
  }

  @Test
  void aBodyOfExactlyTheLimitIsAccepted() {
    TestClient c = connect();
    c.send("put 0 0 60 10", "0123456789").expect("INSERTED 1");
  }

  @Test
  void jobTooBigSwallowsTheBodyAndTheConnectionStaysUsable() {
    TestClient c = connect();
    // The body looks like commands; none of them may run.
    c.sendRaw("put 0 0 60 11\r\npeek 1\r\nabc\r\nlist-tube-used\r\n");
    c.expect("JOB_TOO_BIG", "USING default");
    c.send("put 0 0 60 2", "ok").expect("INSERTED 1");
  }

  @Test
  void jobTooBigSwallowsExactlyBytesPlusTwoWhateverTheyAre() {
    TestClient c = connect();
    c.sendRaw("put 0 0 60 11\r\n" + "x".repeat(13) + "list-tube-used\r\n");
    c.expect("JOB_TOO_BIG", "USING default");
  }

  @Test
  void jobTooBigComesBeforeTrailingTextOnThePutLine() {
    TestClient c = connect();
    c.sendRaw("put 0 0 60 70000 junk\r\n" + "y".repeat(70_002) + "list-tube-used\r\n");
    c.expect("JOB_TOO_BIG", "USING default");
  }

  @Test
  void statsReportsTheConfiguredMaxJobSize() {
    TestClient c = connect();
    Assertions.assertEquals("10", c.stats("stats").get("max-job-size"));
  }
}
