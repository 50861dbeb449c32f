package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.ChildJvm;
import io.github.vertxbeanstalkd.TestClient;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One client watching new tubes without end, in a real server with a small heap and a large
 * maxMemory: it is told OUT_OF_MEMORY once the tubes and watches take the heap's share for them,
 * and the server goes on serving. Before that share existed, the same flood ended the process with
 * OutOfMemoryError (maxMemory is sized by direct memory, the tubes live on the heap).
 */
class TubeFloodTest {
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
  private static final int WATCHES = 80_000;
  private static final int BATCH = 1_000;

  @TempDir
  Path dir;

  @Test
  void watchingNewTubesWithoutEndIsRefusedBeforeTheHeapRunsOut() throws Exception {
    try (ChildJvm server = ChildJvm.start(List.of("-Xmx64m", "-XX:MaxDirectMemorySize=1g", "-XX:+ExitOnOutOfMemoryError"),
        "io.github.vertxbeanstalkd.Main",
        List.of("io.github.vertxbeanstalkd.MainVerticle", "-conf", "{\"port\":0,\"http\":{\"enabled\":false}}"), dir.resolve("server.log"))) {
      floodAndCheck(server);
    }
  }

  private static void floodAndCheck(ChildJvm server) throws Exception {
    int port = Integer.parseInt(server.await(LISTENING, 60_000).group(1));

    int watching = 0;
    int refused = 0;
    try (TestClient c = TestClient.connect(port)) {
      for (int sent = 0; sent < WATCHES; sent += BATCH) {
        StringBuilder batch = new StringBuilder();
        for (int i = sent; i < sent + BATCH; i++) {
          batch.append("watch flood-").append(i).append("\r\n");
        }
        c.sendRaw(batch.toString());
        for (int i = 0; i < BATCH; i++) {
          String reply = c.readLine();
          if (reply.equals("OUT_OF_MEMORY")) {
            refused++;
          } else {
            assertEquals("WATCHING " + (watching + 2), reply);
            watching++;
          }
        }
      }
      // -Xmx64m: an eighth, 8 MiB, at 1,088 bytes a new watched tube.
      assertTrue(watching > 5_000 && watching < 8_000, "watching " + watching);
      assertEquals(WATCHES - watching, refused);
      c.send("put 0 0 60 2", "ok").expect("INSERTED 1");
      assertEquals(String.valueOf(watching + 1), c.stats("stats").get("current-tubes"));
    }
    assertTrue(server.isAlive(), server.log());
  }
}
