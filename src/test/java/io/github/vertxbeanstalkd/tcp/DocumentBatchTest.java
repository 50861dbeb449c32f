package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.protocol.Command;
import org.junit.jupiter.api.Test;

/**
 * Commands answered with a document are a few bytes in and kilobytes out: a batch holds at most
 * {@link Connection#MAX_BATCH_DOCUMENTS} of them, and pipelined thousands are still all answered,
 * in order.
 */
class DocumentBatchTest extends DeployedServerTest {
  @Test
  void theDocumentCommandsAreTheOnesCounted() {
    for (Command c : new Command[] {new Command.Stats(), new Command.StatsTube("default"), new Command.StatsJob(1),
        new Command.ListTubes(), new Command.ListTubesWatched()}) {
      assertTrue(Command.isAnsweredWithDocument(c), c.toString());
    }
    for (Command c : new Command[] {new Command.ListTubeUsed(), new Command.Peek(1), new Command.Delete(1),
        new Command.Use("a")}) {
      assertFalse(Command.isAnsweredWithDocument(c), c.toString());
    }
  }

  @Test
  void thousandsOfPipelinedDocumentsAreAllAnsweredInOrder() {
    TestClient c = connect();
    StringBuilder pipeline = new StringBuilder();
    int pairs = 20 * BatchLimits.MAX_BATCH_DOCUMENTS + 7;
    for (int i = 0; i < pairs; i++) {
      pipeline.append("stats-tube default\r\nlist-tube-used\r\n");
    }
    c.sendRaw(pipeline.toString());
    for (int i = 0; i < pairs; i++) {
      assertEquals("default", c.readYaml().get("name"));
      c.expect("USING default");
    }
    assertEquals(String.valueOf(pairs), c.stats("stats").get("cmd-stats-tube"));
  }
}
