package io.github.vertxbeanstalkd.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.ReplyText;
import io.github.vertxbeanstalkd.TestClient;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every node serves the protocol (REPLICATION.md, the last section), in a three-node group of child
 * JVMs through the real launcher: a client of a standby's TCP port works on the primary's queue
 * with the replies a client of the primary's own port gets, stats on any node count every
 * connection, and across a SIGKILL of the primary the standbys' clients keep their connections,
 * their tubes and their waiting reserves. The byte-exact replies of every recorded conversation
 * through a forwarding front are {@code conformance.ForwardedConformanceTest}'s; this one crosses
 * JVMs and the clustered event bus.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ForwardingTest {
  private static final long START_MILLIS = 60_000;
  private static final long FAILOVER_MILLIS = 30_000;
  /** The same length, so that documents naming them have the same byte counts. */
  private static final String[] TUBES = {"fwd-tube", "dir-tube"};
  private static final Pattern ID = Pattern.compile("^(INSERTED|RESERVED|FOUND|BURIED) (\\d+)|\nid: (\\d+)\n");
  private static final Pattern CLOCK = Pattern.compile("\n(age|time-left|uptime|rusage-utime|rusage-stime): [\\d.]+");
  /** On a standby: the commands its connections have forwarded to the primary whose replies have not come. */
  private static final String FORWARDED_AWAITING = "beanstalkd_forwarded_commands_awaiting_reply";

  @TempDir
  static Path dir;
  private final List<GroupNode> nodes = new ArrayList<>();
  private GroupNode primary;
  private List<GroupNode> standbys;

  @BeforeAll
  void startGroup() throws Exception {
    CpLoopbackCluster cluster = new CpLoopbackCluster(3, dir);
    for (int i = 0; i < 3; i++) {
      nodes.add(new GroupNode("fwd" + (i + 1), dir, cluster.xmlFor(i), new JsonObject().put("minAcks", 1)));
    }
    for (GroupNode node : nodes) {
      node.start();
    }
    primary = Waits.until(() -> {
      GroupNode found = null;
      for (GroupNode node : nodes) {
        String role = node.role();
        if ("primary".equals(role)) {
          found = node;
        } else if (!"standby".equals(role)) {
          return null;
        }
      }
      return found;
    }, START_MILLIS, () -> "no primary and two standbys: " + roles());
    standbys = nodes.stream().filter(n -> n != primary).toList();
    for (GroupNode standby : standbys) {
      // REPLICATION.md, "Roles": /readyz is 200 on a standby whose port forwards, with the role.
      HttpResponse<String> ready = Waits.until(() -> standby.readyz().filter(r -> r.statusCode() == 200).orElse(null),
          START_MILLIS, () -> standby + " never ready: " + standby.readyz().map(HttpResponse::body).orElse("-"));
      assertEquals("standby", new JsonObject(ready.body()).getString("role"), ready.body());
    }
  }

  @AfterAll
  void stopGroup() throws InterruptedException {
    for (GroupNode node : nodes) {
      node.close();
    }
  }

  @Test
  @Order(1)
  void aStandbysClientGetsThePrimarysRepliesToEveryCommand() throws Exception {
    try (TestClient viaStandby = TestClient.connect(standbys.get(0).port());
         TestClient direct = TestClient.connect(primary.port());
         TestClient holder = TestClient.connect(primary.port())) {
      Twins twins = new Twins(viaStandby, direct);
      twins.same("use {T}");
      twins.samePut(0, 60, "hello");
      twins.samePut(100, 60, "abc");
      // BEHAVIOURS.md 4: the body of a put over max-job-size is swallowed by the standby's reader.
      twins.same("put 0 0 60 70000\r\n" + "x".repeat(70_000));
      twins.same("put 0 0 60 abc");
      twins.same("bogus");
      twins.same("watch {T}");
      twins.same("ignore default");
      twins.same("ignore {T}");
      twins.same("list-tubes-watched");
      twins.same("list-tube-used");
      twins.same("peek-ready");
      twins.same("peek {1}");
      twins.same("reserve");
      twins.same("stats-job {1}");
      twins.same("touch {1}");
      twins.same("release {1} 10 0");
      twins.same("reserve-with-timeout 0");
      twins.same("bury {1} 5");
      twins.same("peek-buried");
      twins.same("kick 1");
      twins.same("kick-job {2}");
      twins.same("reserve-job {2}");
      twins.same("delete {2}");
      twins.same("release {2} 0 0");
      twins.same("stats-tube {T}");
      twins.same("pause-tube {T} 0");
      twins.same("delete {1}");
      twins.same("peek 999999999");
      twins.same("reserve-with-timeout 1");
      // BEHAVIOURS.md 6: inside the last second of a reserved job's TTR, a reserve answers DEADLINE_SOON.
      twins.samePut(0, 1, "ds");
      twins.same("reserve");
      twins.same("reserve-with-timeout 5");
      twins.same("delete {3}");

      // A job another connection holds is NOT_FOUND to both, and stays reserved.
      holder.send("use held").expect("USING held");
      holder.sendPut(0, 0, 120, "held".getBytes(StandardCharsets.US_ASCII));
      long held = Long.parseLong(holder.readLine().substring("INSERTED ".length()));
      holder.send("watch held").expect("WATCHING 2");
      holder.send("reserve-with-timeout 0").expect("RESERVED " + held + " 4", "held");
      twins.same("delete " + held);
      twins.same("touch " + held);
      twins.same("bury " + held + " 1");
      twins.same("stats-job " + held);
      twins.same("stats-tube held");

      // DRAINING comes from the primary's engine.
      assertEquals(200, primary.post("/api/drain"));
      twins.samePut(0, 60, "drained");
      assertEquals(200, primary.post("/api/undrain"));

      // stats on a standby answers the primary's figures.
      Map<String, String> forwarded = viaStandby.stats("stats");
      Map<String, String> own = direct.stats("stats");
      assertEquals(own.keySet(), forwarded.keySet());
      assertEquals(Long.toString(primary.pid()), forwarded.get("pid"), "stats through a standby is the primary's");
      assertEquals(own.get("current-connections"), forwarded.get("current-connections"));
      assertEquals(own.get("total-jobs"), forwarded.get("total-jobs"));
      String tubes = new String(viaStandby.send("list-tubes").readReply(), StandardCharsets.ISO_8859_1);
      assertTrue(tubes.contains("- " + TUBES[0] + "\n") && tubes.contains("- " + TUBES[1] + "\n")
          && tubes.contains("- held\n"), tubes);

      // quit through a standby ends the session on the primary at once: its job is ready again.
      try (TestClient quitter = TestClient.connect(standbys.get(1).port())) {
        quitter.send("watch held").expect("WATCHING 2");
        holder.send("release " + held + " 0 0").expect("RELEASED");
        quitter.send("reserve-with-timeout 0").expect("RESERVED " + held + " 4", "held");
        holder.send("stats-job " + held);
        assertEquals("reserved", holder.readYaml().get("state"));
        quitter.sendRaw("quit\r\nlist-tubes\r\n");
        quitter.expectClosed();
      }
      Waits.until(() -> "ready".equals(holder.stats("stats-job " + held).get("state")) ? true : null, 5_000,
          () -> "the job a standby's client held is still reserved after its quit");
    }
  }

  @Test
  @Order(2)
  void everyNodesStatsCountTheForwardedConnections() throws Exception {
    try (TestClient direct = TestClient.connect(primary.port());
         TestClient producer = TestClient.connect(standbys.get(0).port());
         TestClient worker = TestClient.connect(standbys.get(1).port())) {
      producer.send("use counted").expect("USING counted");
      producer.sendPut(0, 0, 60, "p".getBytes(StandardCharsets.US_ASCII));
      long putId = Long.parseLong(producer.readLine().substring("INSERTED ".length()));
      worker.send("watch waiting-room", "ignore default").expect("WATCHING 2", "WATCHING 1");
      worker.send("reserve");
      // The direct client and the two forwarded ones (the earlier tests' connections are closed).
      Map<String, String> after = Waits.until(() -> {
        Map<String, String> s = direct.stats("stats");
        return s.get("current-waiting").equals("1") && s.get("current-connections").equals("3") ? s : null;
      }, 10_000, () -> "the forwarded connections and their waiting reserve are not counted: " + direct.stats("stats"));
      assertEquals("1", after.get("current-producers"), after.toString());
      assertEquals("1", after.get("current-workers"), after.toString());
      String withOneMore = Long.toString(Long.parseLong(after.get("current-connections")) + 1);
      for (GroupNode node : nodes) {
        try (TestClient anyNode = TestClient.connect(node.port())) {
          // The previous node's client may not have left yet: its close travels on its own.
          Map<String, String> seen = Waits.until(() -> {
            Map<String, String> s = anyNode.stats("stats");
            return s.get("current-connections").equals(withOneMore) ? s : null;
          }, 10_000, () -> node + ": its own client does not count: " + anyNode.stats("stats"));
          assertEquals(Long.toString(primary.pid()), seen.get("pid"), node + " answers stats with another's figures");
          assertEquals("1", seen.get("current-waiting"), node.toString());
        }
      }
      direct.send("use waiting-room").expect("USING waiting-room");
      direct.sendPut(0, 0, 60, "w".getBytes(StandardCharsets.US_ASCII));
      long waitedFor = Long.parseLong(direct.readLine().substring("INSERTED ".length()));
      worker.expect("RESERVED " + waitedFor + " 1", "w");
      worker.send("delete " + waitedFor).expect("DELETED");
      producer.send("delete " + putId).expect("DELETED");
    }
  }

  @Test
  @Order(3)
  void aStandbysClientKeepsItsConnectionItsTubesAndItsWaitingReserveAcrossAFailover() throws Exception {
    List<TestClient> waiting = new ArrayList<>();
    List<Long> held = new ArrayList<>();
    try {
      for (int i = 0; i < standbys.size(); i++) {
        // Held from tube hold-i; then waiting on [b-i, a-i], a watch list in an order of its own.
        TestClient c = TestClient.connect(standbys.get(i).port()).setReadTimeoutMillis((int) FAILOVER_MILLIS);
        waiting.add(c);
        c.send("use hold-" + i).expect("USING hold-" + i);
        c.sendPut(0, 0, 300, "held".getBytes(StandardCharsets.US_ASCII));
        long id = Long.parseLong(c.readLine().substring("INSERTED ".length()));
        held.add(id);
        c.send("watch hold-" + i, "reserve-with-timeout 0").expect("WATCHING 2", "RESERVED " + id + " 4", "held");
        c.send("watch a-" + i, "watch b-" + i, "ignore default", "ignore hold-" + i)
            .expect("WATCHING 3", "WATCHING 4", "WATCHING 3", "WATCHING 2");
        c.send("list-tubes-watched").expectDocument("---\n- b-" + i + "\n- a-" + i + "\n");
        c.send("reserve-with-timeout 120");
      }
      GroupNode forwarder = standbys.get(0);
      TestClient lost = TestClient.connect(forwarder.port()).setReadTimeoutMillis((int) FAILOVER_MILLIS);
      waiting.add(lost);
      lost.send("use lost").expect("USING lost");
      try (TestClient direct = TestClient.connect(primary.port())) {
        Waits.until(() -> direct.stats("stats").get("current-waiting").equals("2") ? true : null, 10_000,
            () -> "the standbys' reserves are not waiting on the primary");
      }
      // The forwarder's waiting reserve awaits its reply too: the put counts on top of it.
      double awaitingBefore = Waits.until(() -> forwarder.metric(FORWARDED_AWAITING).orElse(null), 10_000,
          () -> forwarder + " exports no " + FORWARDED_AWAITING);

      // Frozen first, so that the put below goes to the primary and is never answered: its reply is lost.
      long faultAt = System.nanoTime();
      primary.stop();
      lost.sendPut(0, 0, 60, "lost".getBytes(StandardCharsets.US_ASCII));
      // Killed only once the standby has sent the put there: read after the kill, it would wait for
      // the next primary and run there.
      Waits.until(() -> forwarder.metric(FORWARDED_AWAITING).filter(n -> n >= awaitingBefore + 1).orElse(null),
          10_000, () -> forwarder + " has not forwarded the put to the frozen primary: " + FORWARDED_AWAITING + " "
              + forwarder.metric(FORWARDED_AWAITING).map(String::valueOf).orElse("(none)") + ", " + awaitingBefore
              + " before the put");
      primary.kill();
      GroupNode old = primary;
      GroupNode next = Waits.until(() -> standbys.stream().filter(n -> "primary".equals(n.role())).findFirst().orElse(null),
          FAILOVER_MILLIS, this::roles);
      System.out.println("ForwardingTest: " + next + " became primary "
          + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - faultAt) + " ms after the fault");
      // Forwarded to the frozen primary, the put's reply dies with it: INTERNAL_ERROR.
      assertEquals("INTERNAL_ERROR", lost.readLine(), "a put whose reply died with the primary");
      // The connection goes on, with its tube, on the new primary.
      lost.send("list-tube-used").expect("USING lost");

      try (TestClient direct = Waits.until(() -> {
        try {
          TestClient c = TestClient.open(next.port(), 5_000);
          return c.call("list-tube-used").equals("USING default") ? c : null;
        } catch (Exception notYet) {
          return null;
        }
      }, FAILOVER_MILLIS, () -> next + " does not serve the queue")) {
        // The reserves go on waiting on the new primary, counted there.
        Waits.until(() -> direct.stats("stats").get("current-waiting").equals("2") ? true : null, FAILOVER_MILLIS,
            () -> "the standbys' reserves do not wait on the new primary: " + direct.stats("stats"));
        for (int i = 0; i < standbys.size(); i++) {
          // The jobs they held are ready again, not given to their reserves, which watch other tubes.
          assertEquals("ready", direct.stats("stats-job " + held.get(i)).get("state"));
          direct.send("use a-" + i).expect("USING a-" + i);
          direct.sendPut(0, 0, 60, ("job-" + i).getBytes(StandardCharsets.US_ASCII));
          long id = Long.parseLong(direct.readLine().substring("INSERTED ".length()));
          TestClient c = waiting.get(i);
          c.expect("RESERVED " + id + " 5", "job-" + i);
          c.send("list-tubes-watched").expectDocument("---\n- b-" + i + "\n- a-" + i + "\n");
          c.send("list-tube-used").expect("USING hold-" + i);
          c.send("delete " + id, "delete " + held.get(i)).expect("DELETED", "DELETED");
        }
      }
      assertTrue(!old.isAlive(), "the killed node is gone");
    } finally {
      waiting.forEach(TestClient::close);
    }
  }

  /** One client of a standby and one of the primary, each in its tube: the same steps, the same replies. */
  private static final class Twins {
    private final TestClient[] clients;
    private final List<List<Long>> ids = List.of(new ArrayList<>(), new ArrayList<>());

    Twins(TestClient viaStandby, TestClient direct) {
      this.clients = new TestClient[] {viaStandby, direct};
    }

    /** Sends {@code command} ({T} its tube, {n} its n-th job) on both and compares the replies. */
    void same(String command) {
      compare(command, side -> (expand(side, command) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
    }

    void samePut(int priority, int ttrSeconds, String body) {
      compare("put " + body, side -> ("put " + priority + " 0 " + ttrSeconds + " " + body.length() + "\r\n" + body
          + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
    }

    private void compare(String what, java.util.function.IntFunction<byte[]> bytes) {
      String[] replies = new String[2];
      for (int side = 0; side < 2; side++) {
        byte[] reply = clients[side].sendRaw(bytes.apply(side)).readReply();
        replies[side] = normalize(side, new String(reply, StandardCharsets.ISO_8859_1));
      }
      assertEquals(replies[1], replies[0], "through the standby, " + what + " got " + ReplyText.escape(
          replies[0].getBytes(StandardCharsets.ISO_8859_1)) + " where the primary's own port gave "
          + ReplyText.escape(replies[1].getBytes(StandardCharsets.ISO_8859_1)));
    }

    private String expand(int side, String command) {
      String s = command.replace("{T}", TUBES[side]);
      for (int n = 1; n <= ids.get(side).size(); n++) {
        s = s.replace("{" + n + "}", Long.toString(ids.get(side).get(n - 1)));
      }
      return s;
    }

    /** Each side's ids as their ordinal, its tube as T, and the clock's readings blanked. */
    private String normalize(int side, String reply) {
      if (reply.startsWith("INSERTED ")) {
        ids.get(side).add(Long.parseLong(reply.substring("INSERTED ".length()).trim()));
      }
      String text = reply.replace(TUBES[side], "T");
      Matcher m = ID.matcher(text);
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        String number = m.group(2) != null ? m.group(2) : m.group(3);
        int ordinal = ids.get(side).indexOf(Long.parseLong(number));
        String named = ordinal < 0 ? number : "#" + (ordinal + 1);
        m.appendReplacement(out, Matcher.quoteReplacement(m.group().replace(number, named)));
      }
      m.appendTail(out);
      Matcher clock = CLOCK.matcher(out.toString());
      // A clock's reading may differ in its digits, and so the document's length.
      return clock.find() ? clock.replaceAll("\n$1: _").replaceFirst("^OK \\d+", "OK _") : out.toString();
    }
  }



  private String roles() {
    StringBuilder b = new StringBuilder();
    for (GroupNode node : nodes) {
      Optional<JsonObject> h = node.healthz();
      b.append("\n  ").append(node).append(": ").append(h.map(JsonObject::encode).orElse("no /healthz"));
    }
    for (GroupNode node : nodes) {
      String[] lines = node.log().split("\n");
      b.append("\n--- last lines of ").append(node).append(":\n")
          .append(String.join("\n", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 30), lines.length)));
    }
    return b.toString();
  }
}
