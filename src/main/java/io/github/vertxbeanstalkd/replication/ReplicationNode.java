package io.github.vertxbeanstalkd.replication;

import com.hazelcast.core.HazelcastInstance;
import io.github.vertxbeanstalkd.cluster.ClusterNodes;
import io.github.vertxbeanstalkd.engine.CopySlice;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.cluster.GroupState;
import io.github.vertxbeanstalkd.cluster.GroupStatus;
import io.github.vertxbeanstalkd.bus.LocalCodec;
import io.github.vertxbeanstalkd.config.ReplicationConfig;
import io.github.vertxbeanstalkd.replication.election.Addresses;
import io.github.vertxbeanstalkd.replication.election.Candidacy;
import io.github.vertxbeanstalkd.replication.election.GroupLock;
import io.github.vertxbeanstalkd.replication.election.HazelcastGroupLock;
import io.github.vertxbeanstalkd.replication.election.LedTermFile;
import io.github.vertxbeanstalkd.replication.forwarding.ForwardedSessionsVerticle;
import io.github.vertxbeanstalkd.replication.forwarding.PrimaryRoute;
import io.github.vertxbeanstalkd.replication.shipping.AnchorRecorder;
import io.github.vertxbeanstalkd.replication.shipping.ChangeOutbox;
import io.github.vertxbeanstalkd.replication.shipping.EngineShipping;
import io.github.vertxbeanstalkd.replication.shipping.Follower;
import io.github.vertxbeanstalkd.replication.shipping.OwnStream;
import io.github.vertxbeanstalkd.replication.shipping.PositionFile;
import io.github.vertxbeanstalkd.replication.shipping.PriorStream;
import io.github.vertxbeanstalkd.replication.shipping.Shipper;
import io.github.vertxbeanstalkd.replication.shipping.StreamAnchors;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.VertxException;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's part in its replication group (REPLICATION.md): it competes for the
 * group's lock; while it holds it, it is the primary (its fronts open, its changes shipped, its
 * replies acknowledged only with minAcks standbys and a fresh lease, the connections standbys
 * forward served); otherwise it follows the primary as a standby. Either way it says where the
 * primary is ({@link PrimaryRoute}), for this node's TCP connections. Every change of role is
 * logged with its term.
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
public final class ReplicationNode extends VerticleBase {
  private static final Logger log = LoggerFactory.getLogger(ReplicationNode.class);
  private static final long TICK_MILLIS = 200;
  private static final long CLOSE_AS_PRIMARY_SECONDS = 5;

  private final ReplicationConfig config;
  private final EngineAddress engineAddress;
  private final GroupStatus status;
  private final Fronts fronts;
  private final PrimaryRoute route;
  private final LongConsumer ackNanos;
  private Context context;
  private GroupLock lock;
  private Addresses addresses;
  private EngineShipping engine;
  private Follower follower;
  private Candidacy candidacy;
  private Shipper shipper;
  private IdRanges idRanges;
  private ChangeOutbox outbox;
  private MessageConsumer<JsonObject> primaryConsumer;
  /** The same subscriptions at this term's own address (Addresses#primary(long)), which announcements name. */
  private MessageConsumer<JsonObject> termConsumer;
  /** The deployment serving forwarded connections while this node is the primary. */
  private String forwardingId;
  private String nodeId;
  /** This node's id among the cluster's Vert.x nodes, which the forwarding side compares with the cluster's. */
  private String clusterNodeId;
  private ClusterNodes cluster;
  private String role = GroupState.SYNCING;
  private long term;
  private long failovers;
  private long lagBytes;
  private boolean servesProtocol;
  private long tickTimer = -1;
  private volatile boolean isFollowing;
  /**
   * The term this node led last, while it still holds what it led (until it follows another
   * primary): if that term went on alone, only this node may take over.
   */
  private volatile long ledTerm = -1;
  /** What this node waited for when it last said so, for the log. */
  private String waitingForLogged;

  private final java.nio.file.Path binlogDir;
  /** The stream this node wrote as primary before it restarted, as its log holds it; null when none. */
  private final OwnStream own;
  /** While primary with a log on disk: the anchors of its own stream. */
  private AnchorRecorder anchors;

  /**
   * @param binlogDir this node's binlog directory, where it keeps its position in the primary's
   *     stream across restarts (null: in memory only)
   * @param route where this node says the primary is, for its TCP connections
   * @param ackNanos hears how long each standby's acknowledgement took (may do nothing)
   * @param own what {@link OwnStream#claim} found in the binlog directory before the engine opened it
   */
  public ReplicationNode(ReplicationConfig config, EngineAddress engineAddress, GroupStatus status, Fronts fronts,
      PrimaryRoute route, java.nio.file.Path binlogDir, LongConsumer ackNanos, OwnStream own) {
    this.config = config;
    this.own = own;
    this.route = route;
    this.binlogDir = binlogDir;
    this.engineAddress = engineAddress;
    this.status = status;
    this.fronts = fronts;
    this.ackNanos = ackNanos;
  }

  @Override
  public Future<?> start() {
    context = vertx.getOrCreateContext();
    HazelcastInstance hz = hazelcast();
    if (hz == null) {
      return Future.failedFuture(new VertxException("replication.enabled needs a clustered Vert.x with the "
          + "Hazelcast cluster manager: start with -cluster and a cluster configuration such as "
          + "conf/cluster-group.xml", true));
    }
    LocalCodec.register(vertx, ChangeOutbox.Changes.class);
    LocalCodec.register(vertx, CopySlice.class);
    cluster = ClusterNodes.of(vertx);
    clusterNodeId = cluster.localNodeId();
    // The Vert.x node id, not Hazelcast's member id: a member merged back after a split (a pause, a
    // partition) gets a new member id, and the other nodes must still find its addresses.
    nodeId = clusterNodeId;
    addresses = Addresses.of(config.group(), nodeId);
    engine = new EngineShipping(vertx, engineAddress);
    lock = new HazelcastGroupLock(hz, config.group());
    if (!lock.isSafe()) {
      // REPLICATION.md "What is promised": without the CP Subsystem the lock is not linearizable, and
      // Hazelcast's CP Subsystem with fewer than three members never elects anyone.
      return Future.failedFuture(new VertxException("replication.enabled needs Hazelcast's CP Subsystem with at "
          + "least three CP members, and this cluster configuration has cp-member-count "
          + hz.getConfig().getCPSubsystemConfig().getCPMemberCount() + ": start every node of the group with "
          + "conf/cluster-group.xml (or set <cp-subsystem><cp-member-count>3</cp-member-count> in yours) and run "
          + "at least three such nodes, or set replication.enabled to false", true));
    }
    String changes = addresses.node() + ".changes";
    outbox = new ChangeOutbox(vertx, changes);
    follower = new Follower(vertx, addresses, engine, new Follower.Listener() {
      @Override
      public void syncing() {
        isFollowing = false;
        if (!role.equals(GroupState.PRIMARY)) {
          setRole(GroupState.SYNCING);
        }
      }

      @Override
      public void following(long followedTerm, long lag) {
        lagBytes = lag;
        isFollowing = true;
        if (!role.equals(GroupState.PRIMARY)) {
          ledTerm = -1;
          term = Math.max(term, followedTerm);
          routeTo(followedTerm, follower.followedNode());
          // A standby can take over: caught up, and seated among the lock's consensus members.
          setRole(lock.isSeated() ? GroupState.STANDBY : GroupState.SYNCING);
        }
      }
    }, binlogDir == null ? null : new PositionFile(binlogDir), own,
        binlogDir == null ? null : new StreamAnchors(binlogDir));
    candidacy = new Candidacy(vertx, config.group(), follower, lock, () -> isFollowing, () -> ledTerm);
    publish();
    return Future.all(
            // Changes and copy slices through one consumer: the order the engine produced them in.
            vertx.eventBus().<Object>localConsumer(changes, msg -> {
              if (shipper == null) {
                return;
              }
              if (msg.body() instanceof ChangeOutbox.Changes c) {
                shipper.onChanges(c);
              } else if (msg.body() instanceof CopySlice slice) {
                shipper.onCopySlice(slice);
              }
            }).completion(),
            vertx.eventBus().<JsonObject>consumer(addresses.announcements(), msg -> onAnnouncement(msg.body()))
                .completion())
        // Until it leads, this node's jobs are a primary's (its last one's, then the next one's):
        // its engine changes nothing of its own, whatever its admin page or a late client asks.
        .compose(v -> engine.run(port -> {
          port.follow();
          return null;
        }))
        .compose(v -> follower.loadPosition())
        .compose(v -> binlogDir == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
          ledTerm = new LedTermFile(binlogDir).read();
          return null;
        }))
        .compose(v -> follower.answerPositionQueries())
        .compose(v -> follower.start())
        .onSuccess(v -> {
          tickTimer = vertx.setPeriodic(TICK_MILLIS, id -> tick());
          lock.start(new LockEvents(), candidacy::mayCompete, () -> ledTerm, follower::copiedTerm);
          log.info("replication: node {} of group '{}' started (minAcks {}, whenTooFewStandbys {}), fencing {}",
              nodeId, config.group(), config.minAcks(), config.whenTooFewStandbys().word(),
              lock.isSafe() ? "safe (CP subsystem)" : "UNSAFE");
        });
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(tickTimer);
    if (lock != null) {
      lock.stop();
    }
    if (shipper != null) {
      shipper.stop();
    }
    return follower == null ? Future.succeededFuture() : follower.stop();
  }

  private HazelcastInstance hazelcast() {
    ClusterNodes cluster = ClusterNodes.of(vertx);
    ClusterManager manager = cluster == null ? null : cluster.manager();
    return manager instanceof HazelcastClusterManager hz ? hz.getHazelcastInstance() : null;
  }

  /** The lock's news, moved from its thread onto this node's context. */
  private final class LockEvents implements GroupLock.Listener {
    @Override
    public void acquired(long newTerm, long confirmedAtNanos, boolean isAlone) {
      context.runOnContext(v -> promote(newTerm, confirmedAtNanos, isAlone));
    }

    @Override
    public void confirmed(long heldTerm, long confirmedAtNanos) {
      context.runOnContext(v -> {
        if (role.equals(GroupState.PRIMARY) && heldTerm == term) {
          renewLease(confirmedAtNanos);
        }
      });
    }

    @Override
    public void lost(long lostTerm, String why) {
      context.runOnContext(v -> {
        if (role.equals(GroupState.PRIMARY) && lostTerm == term) {
          stepDown("lost the group's lock: " + why);
        }
      });
    }
  }

  private void promote(long newTerm, long confirmedAtNanos, boolean isAlone) {
    if (role.equals(GroupState.PRIMARY)) {
      if (newTerm != term) {
        // Won again under a new fence while still serving the old one (its loss not heard yet): the
        // lock and the term served must be one, so let both go and compete afresh.
        lock.release(newTerm);
        stepDown("took the lock again as term " + newTerm + " while primary of term " + term);
      }
      return;
    }
    boolean hadPrimary = follower.newestTerm() > 0;
    log.info("replication: taking over as term {} with the stream of term {} applied up to offset {} (others:{})",
        newTerm, follower.copiedTerm(), follower.applied(), candidacy.lastCompared());
    // Standbys of the stream this node followed resume on it where their histories agree.
    PriorStream prior = follower.priorStream();
    follower.sawTerm(newTerm);
    term = newTerm;
    ledTerm = newTerm;
    if (binlogDir != null) {
      // Restarted on this binlog, this node is still the one that holds what this term acknowledged alone.
      vertx.executeBlocking(() -> {
        new LedTermFile(binlogDir).write(newTerm);
        return null;
      }).onFailure(e -> log.warn("replication: could not keep the term this node leads beside its binlog: {}",
          e.toString()));
    }
    isFollowing = false;
    follower.stop();
    follower.forgetCopy();
    // This node's connections wait while it takes over: the primary they ran on is gone.
    route.set(null);
    shipper = new Shipper(vertx, config, engine, term, prior, () -> stepDown("a newer term began"), ackNanos,
        (t, alone, deadlineMillis) -> Future.fromCompletionStage(lock.recordAlone(t, alone, deadlineMillis), context),
        isAlone);
    Shipper promoted = shipper;
    ChangeOutbox stream = outbox;
    idRanges = new IdRanges(vertx, engine, (atLeast, count) -> Future.fromCompletionStage(lock.takeIds(atLeast, count), context));
    IdRanges ranges = idRanges;
    Future<Long> replicating = engine.run(port -> {
      // This term's stream goes on from where the one this node followed ended.
      stream.startAt(prior.offset());
      port.replicateTo(stream);
      return port.lastSequence();
    }).onSuccess(promoted::acknowledgedUpTo).compose(sequence -> ranges.start().map(sequence));
    if (binlogDir != null) {
      anchors = new AnchorRecorder(vertx, new StreamAnchors(binlogDir), engine, outbox, term);
    }
    renewLease(confirmedAtNanos);
    if (hadPrimary) {
      failovers++;
    }
    setRole(GroupState.PRIMARY);
    log.info("replication: role primary, term {}", term);
    long promotedTerm = term;
    // Standbys forward their connections here once they hear of this primary (its answer to their
    // subscription, its announcement), so its forwarding address is registered before either; and
    // sessions open here only once the engine holds its replies for the standbys' acknowledgements.
    replicating
        .compose(v -> vertx.deployVerticle(new ForwardedSessionsVerticle(engineAddress, addresses.forward(promotedTerm))))
        .compose(id -> {
          if (!isPrimaryOf(promotedTerm)) {
            return vertx.undeploy(id).compose(v -> Future.failedFuture("stepped down while taking over"));
          }
          forwardingId = id;
          primaryConsumer = vertx.eventBus().consumer(addresses.primary(), this::onSubscription);
          termConsumer = vertx.eventBus().consumer(addresses.primary(promotedTerm), this::onSubscription);
          return Future.all(primaryConsumer.completion(), termConsumer.completion()).mapEmpty();
        })
        .compose(v -> {
          if (!isPrimaryOf(promotedTerm)) {
            // Stepped down meanwhile, which closed the consumer and the forwarding address.
            return Future.failedFuture("stepped down while taking over");
          }
          vertx.eventBus().publish(addresses.announcements(), new JsonObject().put("term", promotedTerm)
              .put("node", clusterNodeId));
          route.set(new PrimaryRoute.Primary(promotedTerm, clusterNodeId, null));
          return fronts.open();
        })
        .onSuccess(v -> {
          servesProtocol = isPrimaryOf(promotedTerm);
          publish();
        })
        .onFailure(e -> log.error("replication: could not open the ways in as primary of term {}: {}", promotedTerm,
            e.getMessage()));
  }

  private boolean isPrimaryOf(long aTerm) {
    return role.equals(GroupState.PRIMARY) && term == aTerm;
  }

  /** A standby subscribes to this primary's stream. */
  private void onSubscription(Message<JsonObject> msg) {
    long theirTerm = msg.body().getLong("term", 0L);
    if (theirTerm > term) {
      msg.fail(409, "STALE_TERM " + theirTerm);
      stepDown("a standby has seen term " + theirTerm);
      return;
    }
    msg.reply(shipper.answer(msg.body()).put("node", clusterNodeId));
  }

  /** Another node is the primary of {@code primaryTerm}: this node's connections run there, unless it knows a newer one. */
  private void routeTo(long primaryTerm, String primaryNode) {
    PrimaryRoute.Primary now = route.current();
    if (role.equals(GroupState.PRIMARY) || primaryNode == null || (now != null && now.term() >= primaryTerm)
        || (cluster != null && !cluster.nodeIds().contains(primaryNode))) {
      return;
    }
    route.set(new PrimaryRoute.Primary(primaryTerm, primaryNode, addresses.forward(primaryTerm)));
    publish();
  }

  private void renewLease(long confirmedAtNanos) {
    long lease = lock.leaseNanos();
    status.leaseUntil(confirmedAtNanos + lease);
    engine.send(port -> port.renewLease(confirmedAtNanos, lease));
  }

  private void stepDown(String why) {
    if (!role.equals(GroupState.PRIMARY)) {
      return;
    }
    log.warn("replication: role standby (was primary of term {}): {}", term, why);
    // Not the primary any more: whatever the reason, the lock must not stay here, or no one else
    // could take it (a partition run: a primary that read a newer term in the group's record kept
    // the lock, and the group had no primary for minutes).
    lock.release(term);
    shipper.stop();
    shipper = null;
    // Its anchors go before it follows anyone: they describe a log that changes from now on.
    Future<Void> anchorsGone = anchors == null ? Future.succeededFuture() : anchors.stop();
    anchors = null;
    idRanges.stop();
    idRanges = null;
    servesProtocol = false;
    isFollowing = false;
    // This node's connections wait for the next primary; their sessions here end.
    route.set(null);
    term = Math.max(term, follower.newestTerm());
    setRole(GroupState.SYNCING);
    engine.send(port -> port.stopReplicating());
    Future<Void> unregistered = Future.all(
        primaryConsumer == null ? Future.succeededFuture() : primaryConsumer.unregister(),
        termConsumer == null ? Future.succeededFuture() : termConsumer.unregister()).mapEmpty();
    primaryConsumer = null;
    termConsumer = null;
    String forwarding = forwardingId;
    forwardingId = null;
    unregistered.transform(v -> forwarding == null ? Future.succeededFuture() : vertx.undeploy(forwarding))
        .transform(v -> fronts.close())
        // Each step removes event-bus registrations from the cluster; one sent just as Hazelcast split
        // this node off and merged it back was seen never to complete, and the node never followed
        // the new primary. It follows once they are gone, or after a while whatever became of them.
        .timeout(CLOSE_AS_PRIMARY_SECONDS, java.util.concurrent.TimeUnit.SECONDS)
        .onComplete(r -> {
          if (r.failed()) {
            log.warn("replication: the ways in as primary did not close within {} s ({}); following the new "
                + "primary anyway", CLOSE_AS_PRIMARY_SECONDS, r.cause().toString());
          }
          // Never before its anchors are gone (a copy's RESET deletes them too, before any job goes).
          anchorsGone.onComplete(gone -> {
            if (gone.failed()) {
              log.warn("replication: could not delete this node's stream anchors: {}", gone.cause().toString());
            }
            follower.start();
          });
        });
  }

  private void onAnnouncement(JsonObject announcement) {
    long announced = announcement.getLong("term", 0L);
    if (role.equals(GroupState.PRIMARY)) {
      if (announced > term) {
        follower.sawTerm(announced);
        stepDown("node of term " + announced + " announced itself primary");
      }
      return;
    }
    follower.onAnnouncement(announced);
    term = Math.max(term, announced);
    routeTo(announced, announcement.getString("node"));
  }

  private void tick() {
    String waiting = lock.waitingFor();
    if (waiting != null && !waiting.equals(waitingForLogged)) {
      log.info("replication: waiting for the CP Subsystem to form: {} have joined (it needs all of them before "
          + "any node can be primary)", waiting);
    } else if (waiting == null && waitingForLogged != null) {
      log.info("replication: the CP Subsystem has formed");
    }
    waitingForLogged = waiting;
    PrimaryRoute.Primary primary = route.current();
    if (primary != null && !primary.isLocal() && cluster != null && !cluster.nodeIds().contains(primary.nodeId())) {
      // The primary's node left the cluster: this node's connections wait for the next one.
      log.info("replication: the primary of term {} (node {}) left the cluster", primary.term(), primary.nodeId());
      route.set(null);
    }
    if (shipper != null) {
      shipper.tick();
      if (anchors != null) {
        anchors.tick();
      }
      idRanges.tick();
    } else {
      follower.tick();
      if (isFollowing && role.equals(GroupState.SYNCING) && lock.isSeated()) {
        setRole(GroupState.STANDBY);
      } else if (role.equals(GroupState.STANDBY) && !lock.isSeated()) {
        // Its CP seat is in doubt (merged back after a pause or a partition): until it is checked,
        // the group may not outlive another fault with this node's help.
        setRole(GroupState.SYNCING);
      }
    }
    publish();
  }

  private void setRole(String newRole) {
    if (!newRole.equals(role)) {
      role = newRole;
      if (!newRole.equals(GroupState.PRIMARY)) {
        log.info("replication: role {}, term {}", newRole, term);
      }
    }
    publish();
  }

  private void publish() {
    boolean isPrimary = role.equals(GroupState.PRIMARY);
    // REPLICATION.md, "Roles": a standby's port serves the queue while it has a primary to forward to.
    boolean serves = isPrimary ? servesProtocol : fronts.hasTcp() && route.current() != null;
    status.set(new GroupState(role, term, isPrimary && shipper != null ? shipper.caughtUp() : 0,
        isPrimary && shipper != null && shipper.isDegraded(), isPrimary ? 0 : lagBytes,
        lock == null || lock.isSafe(), failovers, serves, waitingForLogged));
  }
}
