package io.github.vertxbeanstalkd.replication.shipping;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.engine.CopySlice;
import io.github.vertxbeanstalkd.bus.LocalCodec;
import io.github.vertxbeanstalkd.config.BinlogSection;
import io.github.vertxbeanstalkd.config.FsyncSetting;
import io.github.vertxbeanstalkd.config.ReplicationConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.replication.ReplicationNode;
import io.github.vertxbeanstalkd.replication.election.Addresses;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * A primary and a standby in one Vert.x, each a real server with its own binlog, joined by the real
 * {@link Shipper} and {@link Follower} as {@link ReplicationNode} joins them, without the cluster's
 * lock (the primary holds term 1 with a lease that lasts). The standby can be made to read slowly:
 * its batches then reach it one at a time, a few milliseconds apart, in order.
 */
final class ShippingPair implements AutoCloseable {
  private static final long TERM = 1;
  private final Vertx vertx = Vertx.vertx();
  private final Path dir;
  private final Addresses primaryAddresses = Addresses.of("pair", "primary");
  private final Addresses standbyAddresses = Addresses.of("pair", "standby");
  private Context context;
  private BeanstalkServer primary;
  private BeanstalkServer standby;
  private Shipper shipper;
  private Follower follower;
  /** Batches held back from a slow standby, oldest first. */
  private final ArrayDeque<DeliveryContext<Object>> held = new ArrayDeque<>();
  private long slowMillis;
  private long dripTimer = -1;
  private long tickTimer = -1;
  /** Whether hellos to the primary's shared address are held unanswered; read and set on the pair's context. */
  private boolean isSharedAddressSilent;
  private final ArrayDeque<io.vertx.core.eventbus.Message<JsonObject>> unanswered = new ArrayDeque<>();

  ShippingPair(Path dir) {
    this.dir = dir;
  }

  private static ServerConfig config(Path binlogDir) {
    return ServerConfig.forTests().withBinlog(new BinlogSection(binlogDir, FsyncSetting.everyMillis(5),
        BinlogSection.DEFAULT_SEGMENT_SIZE, false));
  }

  /** Starts the primary as the primary of term 1, minAcks 1, serving alone while no standby follows. */
  ShippingPair startPrimary() {
    return startPrimary((term, isAlone, deadlineMillis) -> Future.succeededFuture(true));
  }

  /**
   * Starts the primary as the primary of term 1, minAcks 1, whenTooFewStandbys "serve": it serves
   * alone while no standby follows once {@code record} holds that decision.
   */
  ShippingPair startPrimary(AloneRecord record) {
    context = vertx.getOrCreateContext();
    primary = await(BeanstalkServer.deploy(vertx, config(dir.resolve("primary"))));
    on(() -> {
      LocalCodec.register(vertx, ChangeOutbox.Changes.class);
      LocalCodec.register(vertx, CopySlice.class);
      EngineShipping engine = new EngineShipping(vertx, primary.engineAddress());
      String changes = primaryAddresses.node() + ".changes";
      ChangeOutbox outbox = new ChangeOutbox(vertx, changes);
      shipper = new Shipper(vertx, ReplicationConfig.inGroup("pair").withMinAcks(1), engine, TERM,
          PriorStream.NONE, () -> { throw new IllegalStateException("no newer term in this pair"); }, nanos -> {},
          record, false);
      vertx.eventBus().<Object>localConsumer(changes, msg -> {
        if (msg.body() instanceof ChangeOutbox.Changes c) {
          shipper.onChanges(c);
        } else if (msg.body() instanceof CopySlice slice) {
          shipper.onCopySlice(slice);
        }
      });
      vertx.eventBus().<JsonObject>consumer(primaryAddresses.primary(), msg -> {
        if (isSharedAddressSilent) {
          unanswered.add(msg);
        } else {
          answer(msg);
        }
      });
      vertx.eventBus().<JsonObject>consumer(primaryAddresses.primary(TERM), this::answer);
      engine.run(port -> {
        port.replicateTo(outbox);
        port.allowIds(1, Long.MAX_VALUE);
        port.renewLease(System.nanoTime(), Long.MAX_VALUE / 4);
        return port.lastSequence();
      }).onSuccess(shipper::acknowledgedUpTo);
      tickTimer = vertx.setPeriodic(200, id -> {
        shipper.tick();
        if (follower != null) {
          follower.tick();
        }
      });
      vertx.eventBus().addInboundInterceptor(this::intercept);
      return null;
    });
    return this;
  }

  private void answer(io.vertx.core.eventbus.Message<JsonObject> msg) {
    boolean resumed = shipper.subscribe(msg.body().getString("node"), msg.body().getLong("resumeTerm", -1L),
        msg.body().getLong("resumeFrom", -1L));
    msg.reply(new JsonObject().put("term", TERM).put("resumed", resumed).put("node", "primary"));
  }

  /**
   * From now on the primary's shared address answers nothing, as when the cluster's route to it
   * still names a primary gone silent: hellos sent there wait (see {@link #answerHeldHellos}). The
   * term's own address still answers.
   */
  ShippingPair silenceSharedAddress() {
    on(() -> isSharedAddressSilent = true);
    return this;
  }

  /** Hellos the silent shared address holds unanswered. */
  int heldHellos() {
    return on(() -> unanswered.size());
  }

  /** The hellos held are answered now, late, by the primary, as a primary slow to answer would. */
  void answerHeldHellos() {
    on(() -> {
      while (!unanswered.isEmpty()) {
        answer(unanswered.poll());
      }
      return null;
    });
  }

  /** The primary announces itself, as a new primary does once it serves (ReplicationNode's announcement). */
  void announce() {
    on(() -> {
      follower.onAnnouncement(TERM);
      return null;
    });
  }

  /** Starts (or starts again, on the same binlog) the standby server; it does not follow yet. */
  ShippingPair startStandbyServer() {
    standby = await(BeanstalkServer.deploy(vertx, config(dir.resolve("standby"))));
    return this;
  }

  /** The standby subscribes to the primary, as a node of the group does. */
  ShippingPair follow() {
    on(() -> {
      follower = new Follower(vertx, standbyAddresses, new EngineShipping(vertx, standby.engineAddress()),
          new Follower.Listener() {
            @Override
            public void syncing() {}

            @Override
            public void following(long term, long lagBytes) {}
          }, new PositionFile(dir.resolve("standby")));
      return follower.loadPosition().compose(v -> follower.start());
    });
    return this;
  }

  /** {@link #follow()}, then waits until the standby's copy is complete and it follows the stream. */
  ShippingPair followCopied() {
    follow();
    io.github.vertxbeanstalkd.Await.until("the standby's copy completed", this::isFollowing, 60_000);
    return this;
  }

  /** The standby stops at once: it no longer takes batches, and its server closes. */
  void killStandby() {
    on(() -> {
      Follower f = follower;
      follower = null;
      // What was on its way to it is lost with it.
      held.clear();
      return f.stop();
    });
    await(standby.close());
    standby = null;
  }

  /** From now on the standby takes one batch every {@code millis} ms; 0: as they come. */
  void readSlowly(long millis) {
    on(() -> {
      slowMillis = millis;
      vertx.cancelTimer(dripTimer);
      if (millis > 0) {
        dripTimer = vertx.setPeriodic(millis, id -> {
          DeliveryContext<Object> next = held.poll();
          if (next != null) {
            next.next();
          }
        });
      } else {
        while (!held.isEmpty()) {
          held.poll().next();
        }
      }
      return null;
    });
  }

  private void intercept(DeliveryContext<Object> delivery) {
    if (slowMillis > 0 && delivery.message().address().equals(standbyAddresses.node())) {
      held.add(delivery);
    } else {
      delivery.next();
    }
  }

  int primaryPort() {
    return primary.port();
  }

  /** Runs {@code call} with a client of the primary's engine (a front's way in), on the pair's context. */
  <T> T onPrimaryEngine(java.util.function.Function<io.github.vertxbeanstalkd.bus.EngineClient, Future<T>> call) {
    return engineCall(primary, call);
  }

  /** {@link #onPrimaryEngine} for the standby's engine. */
  <T> T onStandbyEngine(java.util.function.Function<io.github.vertxbeanstalkd.bus.EngineClient, Future<T>> call) {
    return engineCall(standby, call);
  }

  private <T> T engineCall(BeanstalkServer server,
      java.util.function.Function<io.github.vertxbeanstalkd.bus.EngineClient, Future<T>> call) {
    return await(OnContext.call(context, () -> io.github.vertxbeanstalkd.bus.EngineClient.start(vertx,
        server.engineAddress()).compose(client -> call.apply(client).eventually(client::stop))));
  }

  int standbyPort() {
    return standby.port();
  }

  /** The standby's link on the primary, read on the primary's context: null when there is none. */
  <T> T onLink(java.util.function.Function<StandbyLink, T> read) {
    return on(() -> {
      StandbyLink link = shipper.link(standbyAddresses.node());
      return link == null ? null : read.apply(link);
    });
  }

  /** Whether the standby holds a complete copy of term 1's stream and follows it. */
  boolean isFollowing() {
    return on(() -> follower != null && follower.copiedTerm() == TERM
        && StandbyLink.State.LIVE == stateOfLink());
  }

  private StandbyLink.State stateOfLink() {
    StandbyLink link = shipper.link(standbyAddresses.node());
    return link == null ? null : link.state;
  }

  /** Every job of the server on {@code port} with an id up to {@code lastId}: id to its state, tube, priority and body. */
  static TreeMap<Long, String> jobs(int port, long lastId) {
    TreeMap<Long, String> jobs = new TreeMap<>();
    try (TestClient c = TestClient.open(port, 10_000)) {
      for (long from = 1; from <= lastId; from += 200) {
        long to = Math.min(lastId, from + 199);
        for (long id = from; id <= to; id++) {
          c.send("stats-job " + id, "peek " + id);
        }
        for (long id = from; id <= to; id++) {
          String header = c.readLine();
          if (header.equals("NOT_FOUND")) {
            c.readLine();
            continue;
          }
          var stats = c.readYaml(header);
          String body = new String(c.readBody(c.readLine()), java.nio.charset.StandardCharsets.ISO_8859_1);
          String state = stats.get("state").equals("reserved") ? "ready" : stats.get("state");
          jobs.put(id, state + " " + stats.get("tube") + " " + stats.get("pri") + " " + body.hashCode());
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return jobs;
  }

  private <T> T on(Callable<T> action) {
    return OnContext.call(context, action);
  }

  private static <T> T await(Future<T> f) {
    return OnContext.await(f);
  }

  /**
   * Stops the standby's following (the batches it took applied, a position write under way done),
   * then both servers (their binlogs flushed and closed), then Vert.x: nothing writes into the
   * test's directory once this returns.
   */
  @Override
  public void close() throws Exception {
    if (context != null) {
      on(() -> {
        vertx.cancelTimer(tickTimer);
        vertx.cancelTimer(dripTimer);
        Follower f = follower;
        follower = null;
        held.clear();
        return f == null ? Future.succeededFuture() : f.stop();
      });
    }
    if (standby != null) {
      await(standby.close());
    }
    if (primary != null) {
      await(primary.close());
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
