package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Command;
import java.util.List;

/**
 * A front's handle to one session of the engine: what it submits runs in order, and the replies
 * reach the listener it was opened with, in the same order.
 */
public final class EngineSession implements ConnectionSession {
  private final EngineClient client;
  private final SessionKey key;
  private boolean isClosed;
  /** The last two requests submitted, newest first (see {@link #submit(List, Scope)}). */
  private EngineRequest.Submit recent;
  private EngineRequest.Submit older;

  EngineSession(EngineClient client, SessionKey key) {
    this.client = client;
    this.key = key;
  }

  public SessionKey key() {
    return key;
  }

  /** Runs {@code commands} in order, in the session's own tubes. */
  @Override
  public void submit(List<Command> commands) {
    submit(commands, Scope.NONE);
  }

  /**
   * Runs {@code commands} in order, each acting on the tubes {@code scope} names. The engine reads
   * the list when the request reaches it, so it must not change until its commands are answered;
   * a caller that submits the same list again after that (a TCP connection alternates two) sends
   * the same request object again, not a new one per batch.
   */
  public void submit(List<Command> commands, Scope scope) {
    if (isClosed) {
      return;
    }
    EngineRequest.Submit request;
    if (recent != null && recent.commands() == commands && recent.scope() == scope) {
      request = recent;
    } else if (older != null && older.commands() == commands && older.scope() == scope) {
      request = older;
      older = recent;
      recent = request;
    } else {
      request = new EngineRequest.Submit(key, commands, scope);
      older = recent;
      recent = request;
    }
    client.send(request);
  }

  /** The client will send nothing more; a reserve it waits in answers TIMED_OUT. */
  @Override
  public void endInput() {
    if (!isClosed) {
      client.send(new EngineRequest.EndInput(key));
    }
  }

  /**
   * Ends the session (its jobs return to ready); the listener hears the end notice last, unless
   * {@code isHeard} is false. Call {@link #endInput()} first to have a waiting reserve answered.
   */
  public void close(boolean isHeard) {
    if (isClosed) {
      return;
    }
    isClosed = true;
    // What was submitted last is the engine's to drop, not kept here.
    recent = null;
    older = null;
    if (!isHeard) {
      client.forget(key);
    }
    client.send(new EngineRequest.Close(key));
  }

  /**
   * Ends the session: its replies are dropped from now on, and {@code released} runs with its end
   * notice, which the engine sends after every request before the close (the commands it read in
   * place among them).
   */
  @Override
  public void close(Runnable released) {
    if (isClosed) {
      return;
    }
    client.awaitEnd(key, released);
    close(true);
  }

  /** Ends the session without hearing its end notice. */
  @Override
  public void close() {
    close(false);
  }

  public boolean isClosed() {
    return isClosed;
  }
}
