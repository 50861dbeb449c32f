package io.github.vertxbeanstalkd.http;

import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineClient;
import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.bus.JobPage;
import io.github.vertxbeanstalkd.bus.JobQuery;
import io.github.vertxbeanstalkd.bus.Scope;
import io.github.vertxbeanstalkd.bus.SessionCalls;
import io.github.vertxbeanstalkd.bus.TubeSettingsAnswer;
import io.github.vertxbeanstalkd.protocol.TubeSettings;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The admin API's way into the engine: one session of its own, and the engine's snapshot and drain. */
final class EngineCalls {
  private final Vertx vertx;
  private final EngineAddress address;
  private EngineClient client;
  private SessionCalls session;

  EngineCalls(Vertx vertx, EngineAddress address) {
    this.vertx = vertx;
    this.address = address;
  }

  Future<Void> start() {
    return EngineClient.start(vertx, address).map(started -> {
      client = started;
      session = new SessionCalls(client, null);
      return null;
    });
  }

  Future<Void> stop() {
    return client == null ? Future.succeededFuture() : client.stop();
  }

  /** Runs {@code command} with {@code tube} in use (null: no tube needed) and answers its reply. */
  Future<Reply> call(String tube, Command command) {
    return session.call(command, tube == null ? Scope.NONE : Scope.using(tube));
  }

  /**
   * Runs {@code flush} on {@code tube} in a session of its own, ended once it answers: a flush of a
   * deep tube takes seconds, and the page's other calls must not wait behind it in the shared session.
   */
  Future<Reply> flush(String tube, Command.Flush flush) {
    SessionCalls own = new SessionCalls(client, null);
    return own.call(flush, Scope.using(tube)).eventually(own::close);
  }

  /** A fresh snapshot of the engine's counts; fails while the engine is not running yet. */
  Future<EngineSnapshot> snapshot() {
    return client.snapshot();
  }

  /** Sets a tube's settings, or only reads them all when {@code settings} is null. */
  Future<TubeSettingsAnswer> tubeSettings(String tube, TubeSettings settings) {
    return client.tubeSettings(tube, settings);
  }

  /** The tube job {@code id} was dead-lettered from, or an empty string. */
  Future<String> deadLetteredFrom(long id) {
    return client.deadLetteredFrom(id);
  }

  /** One bounded engine answer to a page of a tube's jobs. */
  Future<JobPage> listJobs(JobQuery query) {
    return client.listJobs(query);
  }

  /** Enters or leaves drain mode. */
  Future<Void> drain(boolean isDraining) {
    return client.drain(isDraining);
  }
}
