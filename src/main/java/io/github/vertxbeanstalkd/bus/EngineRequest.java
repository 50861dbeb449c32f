package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.github.vertxbeanstalkd.protocol.Command;
import java.util.List;
import java.util.function.Function;

/**
 * What a front asks of the queue engine; immutable, passed by reference. Each request applies
 * itself to the engine's {@link EngineInput}, so a new front adds no branch to the engine.
 */
public sealed interface EngineRequest {

  /** Runs this request in the engine; what it answers (for a request sent with a reply), or null. */
  Object applyTo(EngineInput engine);

  /**
   * The engine failed on this request (a bug): whoever waits for an answer gets one anyway, so no
   * client is left stuck and the others' requests still run.
   */
  default void failIn(EngineInput engine) {}

  /**
   * A new session. A connection uses and watches {@code default} from the start and counts in
   * stats as a connection (current-connections, producers, workers); any other session starts
   * with no tube, is not counted, and is refused with OUT_OF_MEMORY past maxMemory.
   */
  record Open(SessionKey key, boolean isConnection) implements EngineRequest {
    public Object applyTo(EngineInput engine) { engine.open(key, isConnection); return null; }
  }

  /**
   * Commands to run in order, each within {@code scope}; their replies come back in order as
   * {@link EngineReply} messages. A session the engine does not know answers each with
   * INTERNAL_ERROR and an end notice.
   */
  record Submit(SessionKey key, List<Command> commands, Scope scope) implements EngineRequest {
    public Submit(SessionKey key, List<Command> commands) {
      this(key, commands, Scope.NONE);
    }

    public Object applyTo(EngineInput engine) { engine.submit(key, commands, scope); return null; }

    public void failIn(EngineInput engine) { engine.failed(key, commands.size()); }
  }

  /** The client will send nothing more: a reserve it waits in answers TIMED_OUT, and what is queued is dropped. */
  record EndInput(SessionKey key) implements EngineRequest {
    public Object applyTo(EngineInput engine) { engine.endInput(key); return null; }
  }

  /**
   * The session ends: a reserve it waits in and what is queued are dropped unanswered (an
   * {@link EndInput} first answers the reserve), its reserved jobs return to ready at once, and an
   * end notice is the last thing its front hears.
   */
  record Close(SessionKey key) implements EngineRequest {
    public Object applyTo(EngineInput engine) { engine.close(key); return null; }
  }

  /** A connection over maxConnections was closed at once by its front; only counted. */
  record ConnectionRefused() implements EngineRequest {
    public Object applyTo(EngineInput engine) { engine.connectionRefused(); return null; }
  }

  /**
   * The front at {@code front} received replies holding {@code copiedBytes} bytes of copies (job
   * bodies, documents: {@code Reply.transitBytes}). The engine stops making more for a front that
   * is far behind, until it hears this.
   */
  record Received(String front, long copiedBytes) implements EngineRequest {
    public Object applyTo(EngineInput engine) { engine.received(front, copiedBytes); return null; }
  }

  /** Enter drain mode (what SIGUSR1 does), or leave it. */
  record Drain(boolean isDraining) implements EngineRequest {
    public Object applyTo(EngineInput engine) { engine.drain(isDraining); return null; }
  }

  /**
   * Sets {@code tube}'s (or {@code "*"}'s) settings, replacing what it had (empty ones remove its
   * entry), or only reads them when {@code settings} is null; answers a {@link TubeSettingsAnswer}.
   */
  record TubeSettingsChange(String tube, TubeSettings settings) implements EngineRequest {
    public Object applyTo(EngineInput engine) { return engine.tubeSettings(tube, settings); }
  }

  /**
   * Asks why job {@code id} is buried, when its tube's maxReserves buried it: the answer is the
   * tube it was dead-lettered from, or an empty string (not dead-lettered, or no such job).
   */
  record DeadLetteredFrom(long id) implements EngineRequest {
    public Object applyTo(EngineInput engine) { return engine.deadLetteredFrom(id); }
  }

  /** Asks for a page of a tube's jobs in one state; answers a {@link JobPage}. */
  record ListJobs(JobQuery query) implements EngineRequest {
    public Object applyTo(EngineInput engine) { return engine.listJobs(query); }
  }

  /** Asks for a fresh {@link EngineSnapshot} as the message's reply; it is also published to the observer. */
  record Snapshot() implements EngineRequest {
    public Object applyTo(EngineInput engine) { return engine.snapshot(); }
  }

  /**
   * Work on the engine's thread against one of the engine's own interfaces, {@code port} (the
   * replication layer's, {@code engine.ShippingPort}): {@code action}'s result is the answer (wrapped
   * in an {@link Answer}). In the order of the other requests, as it travels the same address.
   */
  record OnEngine<P>(Class<P> port, Function<P, Object> action) implements EngineRequest {
    public Object applyTo(EngineInput engine) { return new Answer(action.apply(engine.port(port))); }
  }

  /** What an {@link OnEngine} request gave back. */
  record Answer(Object value) {}

  /** Everything one front had to say during one event-loop turn, in order: one message for many sessions. */
  record Batch(List<EngineRequest> requests) implements EngineRequest {
    public Object applyTo(EngineInput engine) {
      throw new IllegalStateException("a batch is unpacked by the engine's verticle, request by request");
    }
  }
}
