package io.github.vertxbeanstalkd.replication.shipping;

import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineRequest;
import io.github.vertxbeanstalkd.engine.ShippingPort;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import java.util.function.Function;

/** Runs the replication layer's work on the engine's thread, through the seam, and brings back the answer. */
public final class EngineShipping {
  private static final DeliveryOptions NO_TIMEOUT = new DeliveryOptions().setSendTimeout(60_000);
  private final Vertx vertx;
  private final EngineAddress address;

  public EngineShipping(Vertx vertx, EngineAddress address) {
    this.vertx = vertx;
    this.address = address;
  }

  @SuppressWarnings("unchecked")
  public <T> Future<T> run(Function<ShippingPort, T> action) {
    return vertx.eventBus().<EngineRequest.Answer>request(address.requests(),
            new EngineRequest.OnEngine<>(ShippingPort.class, port -> action.apply(port)), NO_TIMEOUT)
        .map(msg -> (T) msg.body().value());
  }

  /** Runs {@code action} without waiting for it. */
  public void send(java.util.function.Consumer<ShippingPort> action) {
    vertx.eventBus().send(address.requests(), new EngineRequest.OnEngine<>(ShippingPort.class, port -> {
      action.accept(port);
      return null;
    }));
  }
}
