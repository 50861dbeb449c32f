package io.github.vertxbeanstalkd.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.Await;
import io.github.vertxbeanstalkd.ChildJvm;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.client.BeanstalkClient;
import io.github.vertxbeanstalkd.client.BeanstalkJob;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clustered sidecar, as README's two terminals run it: the real launcher starts the server
 * with -cluster in a child JVM; an app node in this JVM uses the queue over the event bus while a
 * TCP client works on the same jobs; then a third JVM, the example app, holds reserved jobs and
 * is killed with SIGKILL, and its jobs must be ready again within seconds, not after their TTR.
 */
class ClusterSidecarTest {
  private static final long START_MILLIS = 60_000;
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");

  @TempDir
  Path dir;
  private ChildJvm sidecar;
  private ChildJvm holder;
  private Vertx app;

  @AfterEach
  void stop() throws Exception {
    if (holder != null) {
      holder.close();
    }
    if (app != null) {
      Waits.result(app.close(), 30);
    }
    if (sidecar != null) {
      sidecar.close();
    }
  }

  @Test
  void anAppNodeAndATcpClientShareTheQueueAndADeadNodesJobsReturnAtOnce() throws Exception {
    LoopbackCluster cluster = new LoopbackCluster(3);
    sidecar = ChildJvm.start(List.of("-Dvertx.hazelcast.config=" + cluster.xmlFor(0, dir)),
        "io.github.vertxbeanstalkd.Main",
        List.of("io.github.vertxbeanstalkd.MainVerticle", "-cluster", "-cluster-host", "127.0.0.1", "-conf",
            "{\"port\":0,\"http\":{\"port\":0}}"), dir.resolve("sidecar.log"));
    app = Waits.result(cluster.node(1), 60);
    int port = Integer.parseInt(sidecar.await(LISTENING, START_MILLIS).group(1));
    // Without cluster.tls, the start says so once, at warn.
    sidecar.await(Pattern.compile("WARN  Main - cluster event bus: NOT encrypted"), 1_000);
    BeanstalkClient client = BeanstalkClient.create(app);
    Waits.reachable(client, START_MILLIS);

    try (TestClient tcp = TestClient.connect(port)) {
      // A job put over the bus is reserved over TCP...
      long id = Waits.result(client.put("shared", "from the bus"), 10);
      tcp.send("watch shared").expect("WATCHING 2");
      tcp.send("reserve-with-timeout 0").expect("RESERVED " + id + " 12", "from the bus");
      tcp.send("delete " + id).expect("DELETED");
      // ...and one put over TCP wakes a reserve that waits over the bus.
      Future<BeanstalkJob> waiting = client.reserve("shared", 10);
      // Put only once the reserve waits; a put that came first would not test the wake-up.
      Await.until("the bus reserve waiting", () -> "1".equals(tcp.stats("stats").get("current-waiting")), 10_000);
      tcp.send("use shared").expect("USING shared");
      tcp.send("put 0 0 60 8", "from tcp").expect("INSERTED " + (id + 1));
      BeanstalkJob job = Waits.result(waiting, 15);
      assertEquals("from tcp", job.bodyAsString());
      tcp.send("delete " + job.id()).expect("NOT_FOUND");
      Waits.result(client.delete(job.id()), 10);
      JsonObject stats = Waits.result(client.stats(), 10);
      assertEquals(2L, stats.getLong("cmd-put"));
      assertEquals(3L, stats.getLong("cmd-delete"), "two deletes, and the refused TCP one counts too");

      tcp.send("use held").expect("USING held");
      tcp.send("put 0 0 300 1", "a").expect("INSERTED " + (id + 2));
      tcp.send("put 0 0 300 1", "b").expect("INSERTED " + (id + 3));
      holder = ChildJvm.start(List.of("-Dvertx.hazelcast.config=" + cluster.xmlFor(2, dir)),
          "io.github.vertxbeanstalkd.example.ClusterApp", List.of("--hold", "--tube", "held", "--jobs", "2"),
          dir.resolve("holder.log"));
      holder.await(Pattern.compile("holding 2 jobs"), START_MILLIS);
      assertEquals("2", tcp.stats("stats-tube held").get("current-jobs-reserved"));

      holder.kill();
      long killedAt = System.nanoTime();
      Await.value(() -> "2".equals(tcp.stats("stats-tube held").get("current-jobs-ready")) ? true : null, 15_000,
          () -> "the dead node's jobs back to ready:\n" + sidecar.log());
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
      System.out.println("a killed node's 2 jobs were ready again " + millis + " ms after SIGKILL");
      var held = tcp.stats("stats-tube held");
      assertEquals("0", held.get("current-jobs-reserved"));
      var first = tcp.stats("stats-job " + (id + 2));
      assertEquals("0", first.get("timeouts"), "returned by the node's departure, not by its TTR");
    }
  }



}
