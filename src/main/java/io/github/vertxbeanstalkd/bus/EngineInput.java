package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.Command;
import java.util.List;

/** What the queue engine offers its fronts: the vocabulary every {@link EngineRequest} is written in. */
public interface EngineInput {
  void open(SessionKey key, boolean isConnection);

  void submit(SessionKey key, List<Command> commands, Scope scope);

  void endInput(SessionKey key);

  void close(SessionKey key);

  void connectionRefused();

  void drain(boolean isDraining);

  EngineSnapshot snapshot();

  /**
   * The engine's own interface of type {@code type}, for an {@link EngineRequest.OnEngine}: the
   * replication layer's port ({@code engine.ShippingPort}). The seam carries it without knowing it.
   *
   * @throws IllegalArgumentException when the engine offers no interface of that type
   */
  <P> P port(Class<P> type);

  /** The engine failed on {@code commands} commands of {@code key}: each is answered INTERNAL_ERROR. */
  void failed(SessionKey key, int commands);

  /** The front at {@code front} received {@code copiedBytes} of job bodies and documents in its replies ({@code Reply.transitBytes}). */
  void received(String front, long copiedBytes);

  /** See {@link EngineRequest.TubeSettingsChange}; {@code settings} null only reads. */
  TubeSettingsAnswer tubeSettings(String tube, io.github.vertxbeanstalkd.protocol.TubeSettings settings);

  /** See {@link EngineRequest.DeadLetteredFrom}. */
  String deadLetteredFrom(long id);

  /** See {@link EngineRequest.ListJobs}. */
  JobPage listJobs(JobQuery query);
}
