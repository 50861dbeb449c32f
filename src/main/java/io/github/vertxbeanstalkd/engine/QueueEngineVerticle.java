package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineInput;
import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.bus.JobPage;
import io.github.vertxbeanstalkd.bus.JobQuery;
import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.bus.SessionKey;
import io.github.vertxbeanstalkd.bus.TubeSettingsAnswer;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.bus.EngineRequest;
import io.github.vertxbeanstalkd.persistence.Binlog;
import io.github.vertxbeanstalkd.persistence.BinlogConfig;
import io.github.vertxbeanstalkd.persistence.BinlogListener;
import io.vertx.core.Context;
import io.github.vertxbeanstalkd.store.DirectMemory;
import io.vertx.core.Future;
import io.vertx.core.VertxException;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one verticle that owns the {@link QueueEngine}: it feeds it requests from the event bus,
 * sends its replies back once a turn ends ({@link TurnReplies}), and keeps one Vert.x timer armed
 * for the engine's next deadline.
 */
public final class QueueEngineVerticle extends VerticleBase {
  private static final Logger log = LoggerFactory.getLogger(QueueEngineVerticle.class);
  /** How often the job store is trimmed and a snapshot published. */
  private static final long PERIOD_MILLIS = 1000;
  /**
   * Whether turns are timed as {@link EngineTurn} events ({@code -Dvertxbeanstalkd.engineTurns=true},
   * as the measurement scripts start the server). Off, the event class is never loaded: loading any
   * Flight Recorder event initializes the recorder's machinery, about 0.1 s on the event loop in the
   * server's first turn.
   */
  private static final boolean TURNS_TIMED = Boolean.getBoolean("vertxbeanstalkd.engineTurns");

  private final EngineAddress address;
  private final EngineOptions options;
  private final EngineObserver observer;
  private final Clock clock;
  private final EngineInput input = new Input();
  private Binlog binlog;
  private QueueEngine engine;
  private EventBus bus;
  private MessageConsumer<EngineRequest> consumer;
  private long timerId = -1;
  private long trimTimerId = -1;
  private long timerDeadlineNanos = Long.MAX_VALUE;
  private boolean isResumeScheduled;
  private final TurnReplies replies = new TurnReplies();
  /** Asked per front at the end of a turn: one predicate for the verticle's life, not one per turn. */
  private final Predicate<String> isReceiptWanted = front -> engine.isReceiptWanted(front);

  public QueueEngineVerticle(EngineAddress address, EngineOptions options) {
    this(address, options, EngineObserver.NONE);
  }

  public QueueEngineVerticle(EngineAddress address, EngineOptions options, EngineObserver observer) {
    this(address, options, observer, Clock.system());
  }

  /** @param clock the engine's only clock: timers, TTRs, delays and the snapshots' time */
  public QueueEngineVerticle(EngineAddress address, EngineOptions options, EngineObserver observer, Clock clock) {
    this.clock = clock;
    this.address = address;
    this.options = options;
    this.observer = observer;
  }

  @Override
  public Future<?> start() {
    long maxMemoryBytes = options.maxMemoryBytes();
    long storeLimit = new DirectMemory().limitBytes();
    if (maxMemoryBytes > storeLimit) {
      // Before the binlog is opened: a start-up that cannot succeed touches nothing.
      return Future.failedFuture(new VertxException("config: 'maxMemory' is " + maxMemoryBytes
          + " bytes, more than the job store can hold here (" + storeLimit + " bytes, 3/4 of the JVM's direct "
          + "memory); raise -XX:MaxDirectMemorySize or lower maxMemory", true));
    }
    bus = vertx.eventBus();
    Context context = vertx.getOrCreateContext();
    Executor onEngineThread = task -> context.runOnContext(v -> task.run());
    // Replaying the log reads the disk: blocking work, so off the event loop. The engine is built
    // there too and the jobs go straight into its off-heap store; it is handed to this context
    // once the replay is over, before any request reaches it.
    return vertx.executeBlocking(() -> {
          BinlogConfig binlogConfig = options.binlog();
          Binlog opened = binlogConfig.isEnabled()
              ? Binlog.lock(binlogConfig, onEngineThread, new Listener())
              : Binlog.inMemory(binlogConfig);
          DirectMemory memory = new DirectMemory();
          QueueEngine built = new QueueEngine(clock, replies, options.info(), options.maxJobSizeBytes(), opened,
              memory);
          if (binlogConfig.isEnabled()) {
            // No client waits on a replay: the job pages it fills are made present in one call each.
            memory.populateNewBlocks(true);
            try {
              built.restored(opened.replay(built.replayTarget()));
            } catch (Exception | Error e) {
              built.close();
              throw e;
            } finally {
              memory.populateNewBlocks(false);
            }
          }
          binlog = opened;
          return built;
        })
        .compose(built -> {
          engine = built;
          engine.limitMemory(maxMemoryBytes);
          engine.limitHeldState(options.maxHeldStateBytes());
          engine.limitCopiesInTransit(options.copiesInTransitBytes());
          engine.configureTubes(options.tubes(), options.isTubeConfigDeferred());
          consumer = bus.localConsumer(address.requests(), msg -> {
            EngineTurn turn = TURNS_TIMED ? EngineTurn.start() : null;
            Object answer = handle(msg.body());
            if (msg.replyAddress() != null) {
              // A snapshot, a shipping request, or a control request (drain) that asked to hear it was applied.
              msg.reply(answer);
            }
            if (turn != null) {
              turn.end(msg.body().getClass());
            }
          });
          trimTimerId = vertx.setPeriodic(PERIOD_MILLIS, id -> {
            EngineTurn turn = TURNS_TIMED ? EngineTurn.start() : null;
            // Pages the job store emptied go back to the system once they stay empty for a second.
            engine.trimJobStore();
            if (observer != EngineObserver.NONE) {
              publishSnapshot();
            }
            if (turn != null) {
              turn.end("trim");
            }
          });
          afterWork();
          return consumer.completion();
        });
  }

  @Override
  public Future<?> stop() {
    Future<Void> unregistered = consumer == null ? Future.succeededFuture() : consumer.unregister();
    // The final flush and fsync of the log block, so they run off the event loop.
    return unregistered.compose(v -> {
      vertx.cancelTimer(trimTimerId);
      vertx.cancelTimer(timerId);
      if (engine != null) {
        // Nothing reaches the engine any more: its off-heap memory goes back at once.
        engine.close();
      }
      return vertx.executeBlocking(() -> {
        if (binlog != null) {
          binlog.close();
        }
        return null;
      });
    });
  }

  private EngineSnapshot publishSnapshot() {
    EngineSnapshot snapshot = engine.snapshot();
    observer.published(snapshot);
    return snapshot;
  }

  /** The binlog's news, on the engine's thread; it may come before the engine exists. */
  private final class Listener implements BinlogListener {
    @Override
    public void onSynced(long nanos) {
      observer.synced(nanos);
    }

    @Override
    public void onDurable(long sequence) {
      if (engine != null) {
        engine.onDurable(sequence);
        afterWork();
      }
    }

    @Override
    public void onFailure(Throwable cause) {
      if (engine != null) {
        engine.onBinlogFailure(cause);
        afterWork();
      } else {
        log.error("binlog failed", cause);
      }
    }
  }

  private Object handle(EngineRequest request) {
    Object answer = null;
    if (request instanceof EngineRequest.Batch batch) {
      List<EngineRequest> requests = batch.requests();
      for (int i = 0; i < requests.size(); i++) {
        apply(requests.get(i));
      }
    } else {
      answer = apply(request);
    }
    afterWork();
    return answer;
  }

  /** Runs one request; one that fails fails alone, answered if it awaits an answer. */
  private Object apply(EngineRequest request) {
    try {
      return request.applyTo(input);
    } catch (RuntimeException bug) {
      // STYLE.md: protocol outcomes are replies; an exception is a bug, answered INTERNAL_ERROR.
      log.error("engine failed on {}", request.getClass().getSimpleName(), bug);
      try {
        request.failIn(input);
      } catch (RuntimeException alsoFailed) {
        log.error("engine could not answer the failed {}", request.getClass().getSimpleName(), alsoFailed);
      }
      return null;
    }
  }

  /** The engine as its fronts see it. */
  private final class Input implements EngineInput {
    @Override
    public void open(SessionKey key, boolean isConnection) {
      engine.open(key, isConnection);
    }

    @Override
    public void submit(SessionKey key, List<Command> commands, Scope scope) {
      engine.submit(key, commands, scope);
    }

    @Override
    public void endInput(SessionKey key) {
      engine.endInput(key);
    }

    @Override
    public void close(SessionKey key) {
      engine.close(key);
    }

    @Override
    public void connectionRefused() {
      engine.connectionRefused();
    }

    @Override
    public void drain(boolean isDraining) {
      if (isDraining != engine.isDraining()) {
        log.warn(isDraining ? "entering drain mode: puts are refused from now on"
            : "leaving drain mode: puts are accepted again");
      }
      engine.setDraining(isDraining);
    }

    @Override
    public EngineSnapshot snapshot() {
      return publishSnapshot();
    }

    @Override
    public <P> P port(Class<P> type) {
      if (type == ShippingPort.class) {
        return type.cast(engine.shipping());
      }
      throw new IllegalArgumentException("the engine offers no " + type.getName());
    }

    @Override
    public String deadLetteredFrom(long id) {
      return engine.deadLetteredFrom(id);
    }

    @Override
    public JobPage listJobs(JobQuery query) {
      return engine.listJobs(query);
    }

    @Override
    public TubeSettingsAnswer tubeSettings(String tube, TubeSettings settings) {
      boolean isChanged = settings != null && engine.setTubeSettings(tube, settings);
      if (isChanged) {
        log.info("tube settings: '{}' is now {}", tube, settings.toJson().encode());
      }
      return new TubeSettingsAnswer(isChanged, engine.tubeSettings());
    }

    @Override
    public void failed(SessionKey key, int commands) {
      engine.failed(key, commands);
    }

    @Override
    public void received(String front, long copiedBytes) {
      engine.received(front, copiedBytes);
    }
  }

  private void afterWork() {
    replies.send(bus, isReceiptWanted, engine.answerBeforeNanos());
    if (engine.hasYieldedWork() && !isResumeScheduled) {
      isResumeScheduled = true;
      vertx.runOnContext(v -> {
        isResumeScheduled = false;
        EngineTurn turn = TURNS_TIMED ? EngineTurn.start() : null;
        engine.resumeYielded();
        afterWork();
        if (turn != null) {
          turn.end("resume");
        }
      });
    }
    arm(engine.nextDeadlineNanos());
  }

  /** Keeps one timer armed at the engine's next deadline. */
  private void arm(long deadlineNanos) {
    if (deadlineNanos >= timerDeadlineNanos) {
      return;
    }
    if (timerId >= 0) {
      vertx.cancelTimer(timerId);
    }
    long waitNanos = deadlineNanos - engine.nowNanos();
    // Round up: a timer that fires early would only re-arm itself.
    long waitMillis = Math.max(1, (waitNanos + 999_999) / 1_000_000);
    timerDeadlineNanos = deadlineNanos;
    timerId = vertx.setTimer(waitMillis, id -> {
      timerId = -1;
      timerDeadlineNanos = Long.MAX_VALUE;
      EngineTurn turn = TURNS_TIMED ? EngineTurn.start() : null;
      long next = engine.tick();
      afterWork();
      arm(next);
      if (turn != null) {
        turn.end("timer");
      }
    });
  }
}
