package io.github.vertxbeanstalkd.replication.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.engine.CopySlice;
import io.github.vertxbeanstalkd.bus.LocalCodec;
import io.github.vertxbeanstalkd.cluster.Waits;
import io.github.vertxbeanstalkd.config.BinlogSection;
import io.github.vertxbeanstalkd.config.FsyncSetting;
import io.github.vertxbeanstalkd.config.ReplicationConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.replication.election.Addresses;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A former primary that comes back after a failover (real servers with their binlogs, the real
 * Shipper, Follower and AnchorRecorder in one JVM, wired as ReplicationNode wires them, without
 * the cluster's lock): its log's diverged tail is rewound, not copied, and it ends holding exactly
 * the new primary's jobs; one whose log ends before the take-over resumes.
 */
class RewindTest {
  private static final long WAIT_MILLIS = 30_000;
  private static final String OLD = "old";
  private static final String NEW = "new";

  @TempDir
  Path dir;
  private final Vertx vertx = Vertx.vertx();
  private Context context;
  private final Addresses oldAddresses = Addresses.of("g", OLD);
  private final Addresses newAddresses = Addresses.of("g", NEW);
  private BeanstalkServer oldServer;
  private BeanstalkServer newServer;
  private Shipper oldShipper;
  private AnchorRecorder anchors;
  /** Whether the old primary's timer still writes anchors (on its context only). */
  private boolean isAnchoring = true;
  private MessageConsumer<JsonObject> oldSubscriptions;
  private Follower newFollower;
  private Shipper newShipper;
  private Follower oldFollower;
  private long timer = -1;

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Test
  void aFormerPrimaryRewindsItsDivergedTailAndHoldsExactlyTheNewPrimarysJobs() throws Exception {
    startOldPrimary();
    followOldPrimary();
    long lastId = putJobs(oldServer.port(), 1, 40);
    try (TestClient c = TestClient.open(oldServer.port(), 10_000)) {
      c.send("watch a").readLine();
      reserveAnd(c, 3, "release 3 9 0");
      reserveAnd(c, 4, "bury 4 2");
      c.send("delete 5").expect("DELETED");
    }
    long agreed = lastId;
    Waits.until(() -> jobs(oldServer.port(), agreed).equals(jobs(newServer.port(), agreed)) ? true : null,
        WAIT_MILLIS, () -> "the standby never held the primary's jobs");
    Waits.until(() -> Files.exists(dir.resolve(OLD).resolve(StreamAnchors.NAME)) ? true : null, WAIT_MILLIS,
        () -> "the primary wrote no anchors");

    // The standby is cut off; the primary goes on alone: its tail of puts, deletes, releases, buries, kicks.
    on(() -> newFollower.stop());
    Waits.until(() -> on(() -> oldShipper.link(newAddresses.node())) == null ? true : null, WAIT_MILLIS,
        () -> "the primary never dropped the standby");
    lastId = putJobs(oldServer.port(), 41, 10);
    try (TestClient c = TestClient.open(oldServer.port(), 10_000)) {
      c.send("watch a").readLine();
      c.send("delete 6").expect("DELETED");
      c.send("delete 43").expect("DELETED");
      reserveAnd(c, 7, "release 7 1 120");
      reserveAnd(c, 8, "bury 8 0");
      c.send("kick-job 4").expect("KICKED");
      reserveAnd(c, 9, "release 9 5 0");
    }
    crashOldPrimary();

    // The standby takes over as term 2, and the group goes on: some ids its old primary's tail used again.
    promoteStandby();
    long newLast = putJobs(newServer.port(), 1, 12);
    // Ids go on from where the history the two share ends: the old primary's tail used 41 to 50 too.
    assertEquals(52, newLast);
    try (TestClient c = TestClient.open(newServer.port(), 10_000)) {
      c.send("watch a").readLine();
      c.send("delete 7").expect("DELETED");
      reserveAnd(c, 10, "bury 10 4");
      reserveAnd(c, 8, "release 8 6 0");
      c.send("kick-job 3").expect("NOT_FOUND");
    }
    long last = Math.max(lastId, newLast);

    restartOldPrimary();
    assertNotEquals(jobs(newServer.port(), last), jobs(oldServer.port(), last),
        "the old primary's tail made no difference: this test would not see a wrong rewind");
    followNewPrimary();
    Waits.until(() -> on(() -> oldFollower.copiedTerm() == 2
            && newShipper.link(oldAddresses.node()) != null
            && newShipper.link(oldAddresses.node()).state == StandbyLink.State.LIVE) ? true : null,
        WAIT_MILLIS, () -> "the old primary never followed the new one");

    assertEquals(0L, (long) on(() -> newShipper.fullCopies()), "a full copy was taken");
    assertEquals(1L, (long) on(() -> newShipper.rewinds()), "no rewind");
    assertEquals(jobs(newServer.port(), last), jobs(oldServer.port(), last));
  }

  @Test
  void aTailThatTouchedMoreThanASliceOfJobsIsFetchedAgainInSlices() throws Exception {
    startOldPrimary();
    followOldPrimary();
    byte[] body = new byte[8 * 1024];
    java.util.Arrays.fill(body, (byte) 'b');
    long lastId = 0;
    try (TestClient c = TestClient.open(oldServer.port(), 10_000)) {
      for (int i = 0; i < 200; i++) {
        String reply = c.sendPut(i, 0, 60, body).readLine();
        lastId = Long.parseLong(reply.substring("INSERTED ".length()));
      }
    }
    long agreed = lastId;
    Waits.until(() -> jobs(oldServer.port(), agreed).equals(jobs(newServer.port(), agreed)) ? true : null,
        WAIT_MILLIS, () -> "the standby never held the primary's jobs");
    Waits.until(() -> Files.exists(dir.resolve(OLD).resolve(StreamAnchors.NAME)) ? true : null, WAIT_MILLIS,
        () -> "the primary wrote no anchors");
    on(() -> newFollower.stop());
    Waits.until(() -> on(() -> oldShipper.link(newAddresses.node())) == null ? true : null, WAIT_MILLIS,
        () -> "the primary never dropped the standby");
    // The tail deletes 1.6 MB of jobs the new primary still holds: more than one slice to fetch again.
    try (TestClient c = TestClient.open(oldServer.port(), 10_000)) {
      for (long id = 1; id <= agreed; id++) {
        c.send("delete " + id).expect("DELETED");
      }
    }
    crashOldPrimary();
    promoteStandby();
    restartOldPrimary();
    followNewPrimary();
    Waits.until(() -> on(() -> oldFollower.copiedTerm() == 2
            && newShipper.link(oldAddresses.node()) != null
            && newShipper.link(oldAddresses.node()).state == StandbyLink.State.LIVE) ? true : null,
        WAIT_MILLIS, () -> "the old primary never followed the new one");
    assertEquals(0L, (long) on(() -> newShipper.fullCopies()), "a full copy was taken");
    assertEquals(1L, (long) on(() -> newShipper.rewinds()), "no rewind");
    assertEquals(200L, (long) on(() -> newShipper.link(oldAddresses.node()).copiedJobs), "jobs fetched again");
    assertEquals(jobs(newServer.port(), agreed), jobs(oldServer.port(), agreed));
    // The segments the rewind read were kept for it (their jobs all deleted, compaction deleted them at start).
    Waits.until(() -> keptSegments(dir.resolve(OLD)) == 0 ? true : null, WAIT_MILLIS,
        () -> "the segments kept for the rewind are still there");
  }

  private static long keptSegments(Path binlogDir) {
    try (Stream<Path> files = Files.list(binlogDir)) {
      return files.filter(p -> p.getFileName().toString().startsWith(OwnStream.TAIL_PREFIX)).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void aFormerPrimaryWhoseLogEndsBeforeTheTakeOverResumesWithoutARewind() throws Exception {
    startOldPrimary();
    followOldPrimary();
    long lastId = putJobs(oldServer.port(), 1, 20);
    long agreed = lastId;
    Waits.until(() -> Files.exists(dir.resolve(OLD).resolve(StreamAnchors.NAME)) ? true : null, WAIT_MILLIS,
        () -> "the primary wrote no anchors");
    // The delete below is logged after the last anchor, as a record a kill loses always is: an anchor
    // describes only what the log made durable, so none can point past a record the kill took away.
    // (An anchor written after the delete made the cut below a log shorter than its anchor: a full copy.)
    on(() -> {
      isAnchoring = false;
      return null;
    });
    try (TestClient c = TestClient.open(oldServer.port(), 10_000)) {
      c.send("delete 20").expect("DELETED");
    }
    Waits.until(() -> jobs(oldServer.port(), agreed).equals(jobs(newServer.port(), agreed)) ? true : null,
        WAIT_MILLIS, () -> "the standby never held the primary's jobs");
    on(() -> newFollower.stop());
    crashOldPrimary();
    // What a kill can leave: the last record (the delete of job 20) never reached the old primary's disk.
    cutLastRecord(dir.resolve(OLD), 8 + 9);

    promoteStandby();
    restartOldPrimary();
    assertTrue(jobs(oldServer.port(), agreed).containsKey(20L), "the delete was not cut off");
    followNewPrimary();
    Waits.until(() -> on(() -> oldFollower.copiedTerm() == 2
            && newShipper.link(oldAddresses.node()) != null
            && newShipper.link(oldAddresses.node()).state == StandbyLink.State.LIVE) ? true : null,
        WAIT_MILLIS, () -> "the old primary never followed the new one");
    assertEquals(0L, (long) on(() -> newShipper.fullCopies()), "a full copy was taken");
    assertEquals(0L, (long) on(() -> newShipper.rewinds()), "a rewind of a log with no diverged tail");
    Waits.until(() -> jobs(newServer.port(), agreed).equals(jobs(oldServer.port(), agreed)) ? true : null,
        WAIT_MILLIS, () -> "the old primary never got the delete it lost");
  }

  private static ServerConfig config(Path binlogDir) {
    return ServerConfig.forTests().withBinlog(new BinlogSection(binlogDir, FsyncSetting.everyMillis(5),
        BinlogSection.DEFAULT_SEGMENT_SIZE, false));
  }

  /** The old node: primary of term 1, minAcks 1, acknowledging alone while no standby follows. */
  private void startOldPrimary() {
    context = vertx.getOrCreateContext();
    oldServer = await(BeanstalkServer.deploy(vertx, config(dir.resolve(OLD))));
    on(() -> {
      LocalCodec.register(vertx, ChangeOutbox.Changes.class);
      LocalCodec.register(vertx, CopySlice.class);
      EngineShipping engine = new EngineShipping(vertx, oldServer.engineAddress());
      String changes = oldAddresses.node() + ".changes";
      ChangeOutbox outbox = new ChangeOutbox(vertx, changes);
      oldShipper = new Shipper(vertx, ReplicationConfig.inGroup("g").withMinAcks(1), engine, 1, PriorStream.NONE,
          () -> { }, nanos -> { }, (t, alone, deadline) -> io.vertx.core.Future.succeededFuture(true), false);
      anchors = new AnchorRecorder(vertx, new StreamAnchors(dir.resolve(OLD)), engine, outbox, 1);
      vertx.eventBus().<Object>localConsumer(changes, msg -> {
        if (msg.body() instanceof ChangeOutbox.Changes c) {
          oldShipper.onChanges(c);
        } else if (msg.body() instanceof CopySlice slice) {
          oldShipper.onCopySlice(slice);
        }
      });
      oldSubscriptions = vertx.eventBus().consumer(oldAddresses.primary(),
          msg -> msg.reply(oldShipper.answer(msg.body()).put("node", OLD)));
      timer = vertx.setPeriodic(200, id -> {
        oldShipper.tick();
        if (isAnchoring) {
          anchors.tick();
        }
        if (newFollower != null) {
          newFollower.tick();
        }
      });
      return engine.run(port -> {
        outbox.startAt(0);
        port.replicateTo(outbox);
        port.allowIds(1, Long.MAX_VALUE);
        port.renewLease(System.nanoTime(), Long.MAX_VALUE / 4);
        return port.lastSequence();
      }).onSuccess(oldShipper::acknowledgedUpTo);
    });
  }

  private void followOldPrimary() {
    newServer = await(BeanstalkServer.deploy(vertx, config(dir.resolve(NEW))));
    on(() -> {
      newFollower = new Follower(vertx, newAddresses, new EngineShipping(vertx, newServer.engineAddress()),
          quiet(), new PositionFile(dir.resolve(NEW)));
      return newFollower.loadPosition().compose(v -> newFollower.start());
    });
  }

  /** The old primary's process ends: nothing more is shipped, its anchors stay on disk, its server stops. */
  private void crashOldPrimary() {
    on(() -> {
      vertx.cancelTimer(timer);
      oldShipper.stop();
      return oldSubscriptions.unregister();
    });
    await(oldServer.close());
  }

  /** The standby takes over as term 2 with the stream it followed, as ReplicationNode.promote does. */
  private void promoteStandby() {
    on(() -> {
      PriorStream prior = newFollower.priorStream();
      assertTrue(prior.term() == 1 && prior.offset() > 0, "the standby holds no prior stream: " + prior);
      newFollower.forgetCopy();
      EngineShipping engine = new EngineShipping(vertx, newServer.engineAddress());
      String changes = newAddresses.node() + ".changes";
      ChangeOutbox outbox = new ChangeOutbox(vertx, changes);
      newShipper = new Shipper(vertx, ReplicationConfig.inGroup("g").withMinAcks(1), engine, 2, prior, () -> { },
          nanos -> { }, (t, alone, deadline) -> io.vertx.core.Future.succeededFuture(true), false);
      vertx.eventBus().<Object>localConsumer(changes, msg -> {
        if (msg.body() instanceof ChangeOutbox.Changes c) {
          newShipper.onChanges(c);
        } else if (msg.body() instanceof CopySlice slice) {
          newShipper.onCopySlice(slice);
        }
      });
      vertx.eventBus().<JsonObject>consumer(newAddresses.primary(),
          msg -> msg.reply(newShipper.answer(msg.body()).put("node", NEW)));
      timer = vertx.setPeriodic(200, id -> {
        newShipper.tick();
        if (oldFollower != null) {
          oldFollower.tick();
        }
      });
      return engine.run(port -> {
        outbox.startAt(prior.offset());
        port.replicateTo(outbox);
        port.allowIds(1, Long.MAX_VALUE);
        port.renewLease(System.nanoTime(), Long.MAX_VALUE / 4);
        return port.lastSequence();
      }).onSuccess(newShipper::acknowledgedUpTo);
    });
  }

  /** The old node starts again, as BeanstalkServer starts a node of a group: its anchors claimed first. */
  private void restartOldPrimary() throws IOException {
    OwnStream own = OwnStream.claim(dir.resolve(OLD));
    assertNotNull(own, "no anchors to claim");
    oldServer = await(BeanstalkServer.deploy(vertx, config(dir.resolve(OLD))));
    on(() -> {
      oldFollower = new Follower(vertx, oldAddresses, new EngineShipping(vertx, oldServer.engineAddress()), quiet(),
          new PositionFile(dir.resolve(OLD)), own, new StreamAnchors(dir.resolve(OLD)));
      return oldFollower.loadPosition();
    });
  }

  private void followNewPrimary() {
    on(() -> oldFollower.start());
  }

  private static Follower.Listener quiet() {
    return new Follower.Listener() {
      @Override
      public void syncing() {}

      @Override
      public void following(long term, long lagBytes) {}
    };
  }

  /** Cuts the last {@code bytes} off the newest segment: records a crash kept from the disk. */
  private static void cutLastRecord(Path binlogDir, int bytes) throws IOException {
    Path newest;
    try (Stream<Path> files = Files.list(binlogDir)) {
      newest = files.filter(p -> p.getFileName().toString().startsWith("binlog.")).sorted()
          .reduce((a, b) -> b).orElseThrow();
    }
    try (FileChannel ch = FileChannel.open(newest, StandardOpenOption.WRITE)) {
      ch.truncate(ch.size() - bytes);
    }
  }

  /** Puts {@code count} jobs in tube "a", the i-th with priority {@code firstPri + i}; the last id. */
  private static long putJobs(int port, int firstPri, int count) throws IOException {
    long last = 0;
    try (TestClient c = TestClient.open(port, 10_000)) {
      c.send("use a").expect("USING a");
      for (int i = 0; i < count; i++) {
        String reply = c.sendPut(firstPri + i, i % 7 == 6 ? 300 : 0, 60,
            ("job-" + port + "-" + i).getBytes(StandardCharsets.US_ASCII)).readLine();
        assertTrue(reply.startsWith("INSERTED "), reply);
        last = Long.parseLong(reply.substring("INSERTED ".length()));
      }
    }
    return last;
  }

  private static void reserveAnd(TestClient c, long id, String then) {
    String reply = c.call("reserve-job " + id);
    assertTrue(reply.startsWith("RESERVED " + id + " "), reply);
    c.readBody(reply);
    String done = c.call(then);
    assertTrue(done.equals("RELEASED") || done.equals("BURIED"), then + ": " + done);
  }

  /** Every job up to {@code lastId}: id to its tube, state, priority, delay, ttr, counters and body. */
  private static TreeMap<Long, String> jobs(int port, long lastId) {
    TreeMap<Long, String> jobs = new TreeMap<>();
    try (TestClient c = TestClient.open(port, 10_000)) {
      for (long id = 1; id <= lastId + 20; id++) {
        c.send("stats-job " + id);
        String header = c.readLine();
        if (header.equals("NOT_FOUND")) {
          continue;
        }
        Map<String, String> s = c.readYaml(header);
        String body = new String(c.readBody(c.call("peek " + id)), StandardCharsets.ISO_8859_1);
        String state = s.get("state").equals("reserved") ? "ready" : s.get("state");
        jobs.put(id, String.join(" ", s.get("tube"), state, s.get("pri"), s.get("delay"), s.get("ttr"),
            s.get("reserves"), s.get("timeouts"), s.get("releases"), s.get("buries"), s.get("kicks"), body));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return jobs;
  }

  private <T> T on(Callable<T> action) {
    return OnContext.call(context, action);
  }

  private static <T> T await(Future<T> f) {
    return OnContext.await(f);
  }
}
