package io.github.vertxbeanstalkd.example;

import io.github.vertxbeanstalkd.client.BeanstalkClient;
import io.github.vertxbeanstalkd.client.ConsumeOptions;
import io.github.vertxbeanstalkd.client.JobConsumer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small Vert.x app that joins the cluster of a vertx-beanstalkd sidecar and uses the queue
 * through the event bus alone: it puts a few jobs and consumes them. With {@code --hold} it
 * reserves jobs and keeps them, to show (and test) that they return when this node dies.
 *
 * <pre>
 * java -Dvertx.hazelcast.config=conf/cluster.xml -cp target/vertx-beanstalkd.jar \
 *     io.github.vertxbeanstalkd.example.ClusterApp [--tube emails] [--jobs 5] [--hold]
 * </pre>
 */
public final class ClusterApp {
  private ClusterApp() {}

  public static void main(String[] args) {
    String tube = "emails";
    int jobs = 5;
    boolean isHolding = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--tube" -> tube = args[++i];
        case "--jobs" -> jobs = Integer.parseInt(args[++i]);
        case "--hold" -> isHolding = true;
        default -> {
          System.err.println("usage: ClusterApp [--tube NAME] [--jobs N] [--hold]");
          System.exit(2);
        }
      }
    }
    String theTube = tube;
    int count = jobs;
    boolean hold = isHolding;
    // The cluster manager (Hazelcast) is found on the class path; -Dvertx.hazelcast.config picks its configuration.
    Vertx.builder().with(new VertxOptions()).buildClustered()
        .compose(vertx -> (hold ? hold(vertx, theTube, count) : putAndConsume(vertx, theTube, count))
            .eventually(() -> hold ? Future.succeededFuture() : vertx.close()))
        .onFailure(e -> {
          System.err.println("ClusterApp failed: " + e);
          System.exit(1);
        });
  }

  /** Puts {@code count} jobs, then consumes them two at a time and stops. */
  static Future<Void> putAndConsume(Vertx vertx, String tube, int count) {
    BeanstalkClient client = BeanstalkClient.create(vertx);
    Future<Void> puts = Future.succeededFuture();
    for (int i = 1; i <= count; i++) {
      String body = "hello " + i;
      puts = puts.compose(v -> client.put(tube, body)
          .map(id -> {
            System.out.println("put job " + id + ": " + body);
            return null;
          }));
    }
    AtomicInteger handled = new AtomicInteger();
    return puts.compose(v -> {
      io.vertx.core.Promise<Void> allHandled = io.vertx.core.Promise.promise();
      JobConsumer consumer = client.consume(List.of(tube), ConsumeOptions.DEFAULTS.withConcurrency(2), job -> {
        System.out.println("handled job " + job.id() + ": " + job.bodyAsString());
        if (handled.incrementAndGet() == count) {
          allHandled.tryComplete();
        }
        return Future.succeededFuture();
      });
      return allHandled.future().compose(done -> consumer.stop());
    }).onSuccess(v -> System.out.println("done: " + count + " jobs put and consumed over the event bus"));
  }

  /** Reserves up to {@code count} jobs and never finishes them; they are held until this node leaves. */
  static Future<Void> hold(Vertx vertx, String tube, int count) {
    BeanstalkClient client = BeanstalkClient.create(vertx);
    Future<Void> reserved = Future.succeededFuture();
    for (int i = 0; i < count; i++) {
      reserved = reserved.compose(v -> client.reserve(tube, 30).map(job -> {
        System.out.println("holding job " + job.id());
        return null;
      }));
    }
    return reserved.onSuccess(v -> System.out.println("holding " + count + " jobs"));
  }
}
