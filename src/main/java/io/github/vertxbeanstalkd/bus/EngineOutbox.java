package io.github.vertxbeanstalkd.bus;

import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;

/**
 * A front's requests to the engine: what it queues during one event-loop turn goes to the engine
 * as one {@link EngineRequest.Batch} once the turn's I/O is handled, in order, instead of one
 * event-bus message per request.
 */
public final class EngineOutbox {
  private final Vertx vertx;
  private final String engineAddress;
  private List<EngineRequest> queued = new ArrayList<>();
  private boolean isFlushScheduled;

  public EngineOutbox(Vertx vertx, EngineAddress address) {
    this.vertx = vertx;
    this.engineAddress = address.requests();
  }

  /** Must be called on the front's own context. */
  public void send(EngineRequest request) {
    queued.add(request);
    if (!isFlushScheduled) {
      isFlushScheduled = true;
      vertx.runOnContext(v -> {
        isFlushScheduled = false;
        List<EngineRequest> batch = queued;
        queued = new ArrayList<>();
        vertx.eventBus().send(engineAddress, new EngineRequest.Batch(batch));
      });
    }
  }
}
