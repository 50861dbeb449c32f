package io.github.vertxbeanstalkd.bench;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.UUID;
import java.util.function.Function;

/**
 * The raw contract (EVENTBUS.md): a fresh JsonObject per request, sent with
 * {@code eventBus().request} and the {@code action} header, as any Vert.x app can. One
 * DeliveryOptions per action is shared by all requests: Vert.x copies the headers into each
 * message and never changes the options.
 */
final class RawBusCalls implements BusCalls {
  private static final Function<Message<JsonObject>, Long> ID = m -> m.body().getLong("id");
  private static final Function<Message<JsonObject>, ReservedJob> JOB = m -> {
    JsonObject job = m.body();
    return new ReservedJob(job.getLong("id"), BusBodies.stampOf(job.getString("body")));
  };

  private final EventBus bus;
  private final String address;
  private final String tube;
  private final JsonArray watched;
  private final long reserveTimeoutSeconds;
  private final String[] sessions;
  private final DeliveryOptions putOptions = action("put");
  private final DeliveryOptions reserveOptions;
  private final DeliveryOptions deleteOptions = action("delete");
  private final DeliveryOptions quitOptions = action("quit");

  RawBusCalls(Vertx vertx, String address, String tube, int workers, long reserveTimeoutSeconds) {
    this.bus = vertx.eventBus();
    this.address = address;
    this.tube = tube;
    this.watched = new JsonArray().add(tube);
    this.reserveTimeoutSeconds = reserveTimeoutSeconds;
    // EVENTBUS.md: the sender's timeout must outlast the reserve's own.
    this.reserveOptions = action("reserve").setSendTimeout((reserveTimeoutSeconds + 10) * 1000);
    String prefix = "bench-" + UUID.randomUUID() + "-";
    this.sessions = new String[workers];
    for (int i = 0; i < workers; i++) {
      sessions[i] = prefix + i;
    }
  }

  private static DeliveryOptions action(String name) {
    return new DeliveryOptions().addHeader("action", name);
  }

  @Override
  public Future<Long> put(String body) {
    JsonObject request = new JsonObject().put("tube", tube).put("pri", PRIORITY).put("ttr", TTR_SECONDS)
        .put("body", body);
    return bus.<JsonObject>request(address, request, putOptions).map(ID);
  }

  @Override
  public Future<ReservedJob> reserve(int worker) {
    JsonObject request = new JsonObject().put("session", sessions[worker]).put("tubes", watched)
        .put("timeout", reserveTimeoutSeconds);
    return bus.<JsonObject>request(address, request, reserveOptions).map(JOB);
  }

  @Override
  public Future<?> delete(int worker, long id) {
    JsonObject request = new JsonObject().put("id", id);
    if (worker >= 0) {
      request.put("session", sessions[worker]);
    }
    return bus.request(address, request, deleteOptions);
  }

  @Override
  public Future<?> quit(int worker) {
    return bus.request(address, new JsonObject().put("session", sessions[worker]), quitOptions);
  }

  @Override
  public String kind() {
    return "raw";
  }
}
