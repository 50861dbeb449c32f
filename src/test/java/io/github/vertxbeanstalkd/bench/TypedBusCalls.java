package io.github.vertxbeanstalkd.bench;

import io.github.vertxbeanstalkd.client.BeanstalkClient;
import io.github.vertxbeanstalkd.client.BeanstalkClientOptions;
import io.github.vertxbeanstalkd.client.PutOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** The typed {@link BeanstalkClient}: one client for the producers, one per worker (a client is a session). */
final class TypedBusCalls implements BusCalls {
  private static final PutOptions PUT = PutOptions.DEFAULTS.withPriority(PRIORITY).withTtrSeconds(TTR_SECONDS);

  private final String tube;
  private final long reserveTimeoutSeconds;
  private final BeanstalkClient producer;
  private final BeanstalkClient[] workers;

  TypedBusCalls(Vertx vertx, String address, String tube, int workers, long reserveTimeoutSeconds) {
    this.tube = tube;
    this.reserveTimeoutSeconds = reserveTimeoutSeconds;
    BeanstalkClientOptions options = new BeanstalkClientOptions().withAddress(address);
    this.producer = BeanstalkClient.create(vertx, options);
    String prefix = "bench-" + UUID.randomUUID() + "-";
    this.workers = new BeanstalkClient[workers];
    for (int i = 0; i < workers; i++) {
      this.workers[i] = BeanstalkClient.create(vertx, options.withSession(prefix + i));
    }
  }

  @Override
  public Future<Long> put(String body) {
    // What BeanstalkClient.put(tube, String) does, with the TCP generator's priority and TTR.
    return producer.put(tube, Buffer.buffer(body, "UTF-8"), PUT);
  }

  @Override
  public Future<ReservedJob> reserve(int worker) {
    return workers[worker].reserve(tube, reserveTimeoutSeconds).map(job -> new ReservedJob(job.id(),
        BusBodies.stampOf(job.body().getString(0, BusBodies.STAMP_CHARS, StandardCharsets.US_ASCII.name()))));
  }

  @Override
  public Future<?> delete(int worker, long id) {
    return (worker >= 0 ? workers[worker] : producer).delete(id);
  }

  @Override
  public Future<?> quit(int worker) {
    return workers[worker].close();
  }

  @Override
  public String kind() {
    return "typed";
  }
}
