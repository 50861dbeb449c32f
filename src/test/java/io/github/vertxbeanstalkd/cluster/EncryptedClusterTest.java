package io.github.vertxbeanstalkd.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.vertxbeanstalkd.ChildJvm;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.client.BeanstalkClient;
import io.github.vertxbeanstalkd.client.BeanstalkJob;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster.tls} through the real launcher: a clustered server whose event bus requires a
 * certificate from the cluster's CA, an app node with one, and two nodes that join Hazelcast
 * without one (a certificate from another CA, and no TLS at all). The strangers' requests to the
 * queue time out and store nothing; a stranger that registers the queue's address itself receives
 * none of the app's requests; the app keeps working throughout.
 */
class EncryptedClusterTest {
  private static final long START_MILLIS = 60_000;
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
  private static final String ADDRESS = "beanstalkd";

  @TempDir
  Path dir;
  private ChildJvm server;
  private final List<Vertx> nodes = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    Future.join(nodes.stream().map(Vertx::close).toList()).toCompletionStage().toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
    if (server != null) {
      server.close();
    }
  }

  @Test
  void onlyNodesWithACertificateFromTheClustersCaReachTheQueue() throws Exception {
    ClusterCertificates certs = new ClusterCertificates(dir);
    certs.ca("ca");
    certs.ca("other-ca");
    certs.node("server", "ca");
    certs.node("app", "ca");
    certs.node("stranger", "other-ca");

    LoopbackCluster cluster = new LoopbackCluster(4);
    JsonObject conf = new JsonObject().put("port", 0).put("http", new JsonObject().put("port", 0))
        .put("cluster", new JsonObject().put("tls", new JsonObject().put("cert", certs.cert("server").toString())
            .put("key", certs.key("server").toString()).put("ca", certs.cert("ca").toString())));
    server = ChildJvm.start(List.of("-Dvertx.hazelcast.config=" + cluster.xmlFor(0, dir)),
        "io.github.vertxbeanstalkd.Main",
        List.of("io.github.vertxbeanstalkd.MainVerticle", "-cluster", "-cluster-host", "127.0.0.1", "-conf",
            conf.encode()), dir.resolve("server.log"));
    // The app is set up as README tells app nodes to be. The stranger trusts the cluster's CA (its
    // certificate is no secret) but its own certificate comes from another CA.
    Future<Vertx> appStart = cluster.node(1, tls(certs.cert("app"), certs.key("app"), certs.cert("ca")));
    Future<Vertx> strangerStart =
        cluster.node(2, tls(certs.cert("stranger"), certs.key("stranger"), certs.cert("ca")));
    Future<Vertx> plainStart = cluster.node(3);
    Vertx app = Waits.result(appStart, 60);
    nodes.add(app);
    Vertx stranger = Waits.result(strangerStart, 60);
    nodes.add(stranger);
    Vertx plain = Waits.result(plainStart, 60);
    nodes.add(plain);
    int port = Integer.parseInt(server.await(LISTENING, START_MILLIS).group(1));
    server.await(Pattern.compile("INFO  Main - cluster event bus: encrypted \\(TLS\\)"), 1_000);
    assertFalse(Files.readString(dir.resolve("server.log"), StandardCharsets.ISO_8859_1).contains("NOT encrypted"));

    BeanstalkClient client = BeanstalkClient.create(app);
    Waits.reachable(client, START_MILLIS);
    long id = Waits.result(client.put("secrets", "a job body"), 10);
    BeanstalkJob job = Waits.result(client.reserve("secrets", 5), 10);
    assertEquals("a job body", job.bodyAsString());
    Waits.result(client.delete(job.id()), 10);

    // Both find the server's registration in Hazelcast, connect, and are refused in the handshake:
    // Vert.x does not fail the request then, so it times out.
    Future<ReplyFailure> strangerPut = refusedPut(stranger, "from a stranger");
    Future<ReplyFailure> plainPut = refusedPut(plain, "from a node without TLS");
    assertEquals(ReplyFailure.TIMEOUT, Waits.result(strangerPut, 30));
    assertEquals(ReplyFailure.TIMEOUT, Waits.result(plainPut, 30));
    try (TestClient tcp = TestClient.connect(port)) {
      tcp.send("stats-tube strangers").expect("NOT_FOUND");
      assertEquals(String.valueOf(1), tcp.stats("stats").get("cmd-put"), "only the app's put arrived");
    }

    // A stranger that registers the queue's address gets a share of the app's requests routed to
    // it; the app's handshake refuses the stranger's certificate, so each of those times out and
    // none arrives.
    AtomicInteger intercepted = new AtomicInteger();
    MessageConsumer<JsonObject> rogue = stranger.eventBus().consumer(ADDRESS, m -> intercepted.incrementAndGet());
    Waits.result(rogue.completion(), 10);
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    int timedOut = 0;
    int answered = 0;
    while (timedOut == 0) {
      assertTrue(System.nanoTime() < until, "no request of the app was routed to the stranger's address");
      List<Future<ReplyFailure>> round = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        round.add(statsOutcome(app));
      }
      for (Future<ReplyFailure> outcome : round) {
        ReplyFailure f = Waits.result(outcome, 10);
        if (f == null) {
          answered++;
        } else if (f == ReplyFailure.TIMEOUT) {
          timedOut++;
        } else {
          fail("unexpected failure " + f);
        }
      }
    }
    assertEquals(0, intercepted.get(), "the stranger received a request of the app's");
    assertTrue(answered > 0, "the server kept answering the requests routed to it");
    Waits.result(rogue.unregister(), 10);

    // Once the stranger's registration is gone, every request reaches the server again.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      List<Future<ReplyFailure>> round = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        round.add(statsOutcome(app));
      }
      boolean isAllAnswered = true;
      for (Future<ReplyFailure> outcome : round) {
        isAllAnswered &= Waits.result(outcome, 10) == null;
      }
      if (isAllAnswered) {
        break;
      }
      assertTrue(System.nanoTime() < deadline, "the app's requests still time out after the stranger left");
    }
    long next = Waits.result(client.put("secrets", "another body"), 10);
    assertTrue(next > id);
    assertEquals("another body", Waits.result(client.reserve("secrets", 5), 10).bodyAsString());
    assertEquals(0, intercepted.get());
    assertTrue(server.isAlive());
  }

  @Test
  void halfASettingStopsTheLauncherBeforeItJoinsTheCluster() throws Exception {
    LoopbackCluster cluster = new LoopbackCluster(1);
    server = ChildJvm.start(List.of("-Dvertx.hazelcast.config=" + cluster.xmlFor(0, dir)),
        "io.github.vertxbeanstalkd.Main",
        List.of("io.github.vertxbeanstalkd.MainVerticle", "-cluster", "-cluster-host", "127.0.0.1", "-conf",
            "{\"port\":0,\"http\":{\"port\":0},\"cluster.tls.cert\":\"node.pem\",\"cluster.tls.ca\":\"ca.pem\"}"),
        dir.resolve("half.log"));
    assertEquals(15, server.awaitExit(START_MILLIS), server.log());
    String log = server.log();
    assertTrue(log.contains("ERROR Main - start-up failed: config: 'cluster.tls.key' must be set when "
        + "'cluster.tls.cert' is"), log);
    assertFalse(log.contains("Members {"), "it joined the cluster:\n" + log);
  }

  /** README's event-bus settings for a node of an encrypted cluster. */
  private static Consumer<EventBusOptions> tls(Path cert, Path key, Path ca) {
    return options -> options.setSsl(true)
        .setKeyCertOptions(new PemKeyCertOptions().setCertPath(cert.toString()).setKeyPath(key.toString()))
        .setTrustOptions(new PemTrustOptions().addCertPath(ca.toString()))
        .setClientAuth(ClientAuth.REQUIRED)
        .setTrustAll(false);
  }

  /**
   * A put from {@code node} that must not arrive: retried while the node does not see the server's
   * registration yet (NO_HANDLERS); fails the test if it is answered.
   */
  private static Future<ReplyFailure> refusedPut(Vertx node, String body) {
    DeliveryOptions put = new DeliveryOptions().addHeader("action", "put").setSendTimeout(2_000);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    return node.eventBus().request(ADDRESS, new JsonObject().put("tube", "strangers").put("body", body), put)
        .<ReplyFailure>transform(ar -> {
          if (ar.succeeded()) {
            return Future.failedFuture(new AssertionError("a node without the cluster's certificate put a job: "
                + ar.result().body()));
          }
          ReplyFailure f = ar.cause() instanceof ReplyException r ? r.failureType() : null;
          if (f == ReplyFailure.NO_HANDLERS && System.nanoTime() < deadline) {
            Future<Void> later = Future.future(p -> node.setTimer(200, t -> p.complete()));
            return later.compose(v -> refusedPut(node, body));
          }
          return Future.succeededFuture(f);
        });
  }

  /** A stats request from {@code node}: null when answered, else how it failed. */
  private static Future<ReplyFailure> statsOutcome(Vertx node) {
    DeliveryOptions stats = new DeliveryOptions().addHeader("action", "stats").setSendTimeout(1_500);
    return node.eventBus().request(ADDRESS, new JsonObject(), stats).transform(ar -> Future.succeededFuture(
        ar.succeeded() ? null : ar.cause() instanceof ReplyException r ? r.failureType() : ReplyFailure.ERROR));
  }



}
