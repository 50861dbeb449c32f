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

  /** The engine's side of log shipping. */
  ShippingPort shipping();

  /** The engine failed on {@code commands} commands of {@code key}: each is answered INTERNAL_ERROR. */
  void failed(SessionKey key, int commands);

  /** The front at {@code front} received {@code copiedBytes} of job bodies and documents in its replies ({@code Reply.transitBytes}). */
  void received(String front, long copiedBytes);

  /** See {@link EngineRequest.TubeSettingsChange}; {@code settings} null only reads. */
  TubeSettingsAnswer tubeSettings(String tube, io.github.vertxbeanstalkd.config.TubeSettings settings);

  /** See {@link EngineRequest.DeadLetteredFrom}. */
  String deadLetteredFrom(long id);
}
