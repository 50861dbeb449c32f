import com.hazelcast.config.Config;
import com.hazelcast.config.XmlConfigBuilder;
import io.github.vertxbeanstalkd.client.BeanstalkClient;
import io.github.vertxbeanstalkd.client.BeanstalkClientOptions;
import io.github.vertxbeanstalkd.client.BeanstalkException;
import io.github.vertxbeanstalkd.client.PutOptions;
import io.github.vertxbeanstalkd.client.QueueUnreachableException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Producers and consumers of the queue over the event bus, for the kill test (kill_test.py): a
 * Vert.x node that joins the replication group's Hazelcast cluster as a lite member (no CP seat,
 * no data partitions) and uses the product's typed client, {@link BeanstalkClient}, as an app on
 * another node of the cluster would. Run with the JDK's source launcher, no build step:
 *
 * <pre>
 * java -Dvertx.hazelcast.config=CLUSTER.xml -cp target/vertx-beanstalkd.jar src/test/scripts/BusClients.java \
 *     [--tube kill-test] [--producers 1] [--consumers 1] [--rate 200] [--ttr 30] [--body-bytes 0] \
 *     [--prefix bus-] [--address beanstalkd] [--request-timeout-ms 30000] [--pause-ms 200]
 * </pre>
 *
 * CLUSTER.xml is the group's Hazelcast file (same cluster name, member list and CP settings: Hazelcast
 * refuses CP calls between members whose CP configs differ) with a network port of this node's own;
 * lite membership is set here. The event bus listens on 127.0.0.1, as the nodes' -cluster-host.
 *
 * <p>Producer k puts bodies PREFIX p k - n, one at a time, at most --rate a second (0: as fast as
 * acknowledged); consumer k reserves from the tube (1 s timeout) with a client of its own (a
 * session of its own) and deletes each job it gets. Every event is one line on stdout, flushed, in
 * the format src/test/scripts/README.md gives under "Failover under load" (what kill_test.py reads).
 * Logs go to stderr (System.out is pointed there too, so that nothing else writes on the events).
 * It runs until stdin closes or SIGTERM: producers stop putting, consumers delete what they hold
 * and end their sessions (their jobs return to ready), and the node leaves the cluster; every step
 * is bounded, and the process exits within about 20 s whatever happens.
 */
public final class BusClients {
  private static final long STOP_CLIENTS_MILLIS = 12_000;
  private static final long CLOSE_VERTX_MILLIS = 8_000;

  /** The real stdout, for the events only. */
  private static PrintStream events;

  private final Vertx vertx;
  private final Args args;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final List<Future<Void>> loops = new ArrayList<>();
  private final AtomicLong puts = new AtomicLong();
  private final AtomicLong inserted = new AtomicLong();
  private final AtomicLong reserved = new AtomicLong();
  private final AtomicLong deleted = new AtomicLong();
  private final AtomicLong errors = new AtomicLong();

  private BusClients(Vertx vertx, Args args) {
    this.vertx = vertx;
    this.args = args;
  }

  record Args(String tube, int producers, int consumers, double rate, long ttr, int bodyBytes, String prefix,
      String address, long requestTimeoutMillis, long pauseMillis) {
    static Args parse(String[] argv) {
      String tube = "kill-test";
      String prefix = "bus-";
      String address = BeanstalkClientOptions.DEFAULT_ADDRESS;
      int producers = 1;
      int consumers = 1;
      double rate = 200;
      long ttr = 30;
      int bodyBytes = 0;
      long requestTimeout = new BeanstalkClientOptions().requestTimeoutMillis();
      long pause = 200;
      for (int i = 0; i < argv.length; i++) {
        String value = i + 1 < argv.length ? argv[i + 1] : null;
        if (value == null) {
          usage("no value after " + argv[i]);
        }
        switch (argv[i]) {
          case "--tube" -> tube = value;
          case "--producers" -> producers = Integer.parseInt(value);
          case "--consumers" -> consumers = Integer.parseInt(value);
          case "--rate" -> rate = Double.parseDouble(value);
          case "--ttr" -> ttr = Long.parseLong(value);
          case "--body-bytes" -> bodyBytes = Integer.parseInt(value);
          case "--prefix" -> prefix = value;
          case "--address" -> address = value;
          case "--request-timeout-ms" -> requestTimeout = Long.parseLong(value);
          case "--pause-ms" -> pause = Long.parseLong(value);
          default -> usage("unknown option " + argv[i]);
        }
        i++;
      }
      if (producers < 0 || consumers < 0 || rate < 0 || requestTimeout <= 0 || pause < 0) {
        usage("--producers, --consumers, --rate and --pause-ms must be >= 0, --request-timeout-ms > 0");
      }
      return new Args(tube, producers, consumers, rate, ttr, bodyBytes, prefix, address, requestTimeout, pause);
    }

    private static void usage(String why) {
      System.err.println("BusClients: " + why + "\nusage: java -Dvertx.hazelcast.config=FILE -cp JAR BusClients.java"
          + " [--tube T] [--producers N] [--consumers N] [--rate R] [--ttr S] [--body-bytes B] [--prefix P]"
          + " [--address A] [--request-timeout-ms MS] [--pause-ms MS]");
      System.exit(2);
    }
  }

  public static void main(String[] argv) throws Exception {
    events = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    // Before any logger starts: whatever prints on System.out goes to the log, not among the events.
    System.setOut(System.err);
    Args args = Args.parse(argv);
    emit("HELLO", "main", String.valueOf(ProcessHandle.current().pid()));

    String file = System.getProperty("vertx.hazelcast.config");
    if (file == null) {
      System.err.println("BusClients: -Dvertx.hazelcast.config=FILE is required (the group's cluster file)");
      System.exit(2);
    }
    Config config = new XmlConfigBuilder(file).build();
    // A lite member takes no CP seat (the group's three nodes hold them) and no data partitions.
    config.setLiteMember(true);
    // The stop below leaves the cluster itself; Hazelcast's own hook would shut it down under Vert.x.
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    VertxOptions options = new VertxOptions();
    options.getEventBusOptions().setHost("127.0.0.1").setPort(0).setClusterPublicHost("127.0.0.1");
    Vertx vertx = Vertx.builder().with(options).withClusterManager(new HazelcastClusterManager(config))
        .buildClustered().toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);

    BusClients clients = new BusClients(vertx, args);
    CountDownLatch stopped = new CountDownLatch(1);
    AtomicBoolean stopStarted = new AtomicBoolean();
    Runnable stop = () -> {
      if (stopStarted.compareAndSet(false, true)) {
        try {
          clients.stop();
        } finally {
          stopped.countDown();
        }
      }
      try {
        stopped.await(STOP_CLIENTS_MILLIS + CLOSE_VERTX_MILLIS + 2_000, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    Runtime.getRuntime().addShutdownHook(new Thread(stop, "bus-clients-stop"));
    // Until stdin closes (the kill test closes it, or dies).
    Thread stdin = new Thread(() -> {
      byte[] buf = new byte[256];
      try {
        while (System.in.read(buf) >= 0) {
          // Nothing is read from stdin but its end.
        }
      } catch (IOException e) {
        // Same as its end.
      }
      stop.run();
      System.exit(0);
    }, "bus-clients-stdin");
    stdin.setDaemon(true);
    stdin.start();
    clients.start();
  }

  // ------------------------------------------------------------------------------------------

  /** Waits until the queue answers, then starts the loops, each from this (non-Vert.x) thread: a context each. */
  private void start() throws InterruptedException {
    // The subscription of a primary started before this node joined becomes known to it shortly
    // after the join: READY once the queue's address answers stats.
    BeanstalkClient probe = client();
    CountDownLatch answered = new CountDownLatch(1);
    awaitQueue(probe).onComplete(ar -> answered.countDown());
    answered.await();
    synchronized (loops) {
      if (stopping.get()) {
        return;
      }
      emit("READY", "main", "");
      for (int k = 0; k < args.producers; k++) {
        loops.add(new Producer("bus-p" + k).start());
      }
      for (int k = 0; k < args.consumers; k++) {
        loops.add(new Consumer("bus-c" + k).start());
      }
    }
  }

  private Future<Void> awaitQueue(BeanstalkClient probe) {
    return probe.stats().<Void>mapEmpty().recover(e -> {
      if (stopping.get()) {
        return Future.succeededFuture();
      }
      return vertx.timer(200).compose(v -> awaitQueue(probe));
    });
  }

  private BeanstalkClient client() {
    // A session of its own for each; the request timeout as the TCP clients' read timeout.
    return BeanstalkClient.create(vertx, new BeanstalkClientOptions().withAddress(args.address)
        .withRequestTimeoutMillis(args.requestTimeoutMillis));
  }

  private void stop() {
    stopping.set(true);
    List<Future<Void>> running;
    synchronized (loops) {
      running = new ArrayList<>(loops);
    }
    String how = "clean";
    try {
      Future.all(running).toCompletionStage().toCompletableFuture().get(STOP_CLIENTS_MILLIS, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      how = "clients did not stop within " + STOP_CLIENTS_MILLIS + " ms";
      System.err.println("BusClients: " + how);
    }
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(CLOSE_VERTX_MILLIS, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      how = (how.equals("clean") ? "" : how + "; ") + "Vert.x did not close: " + e;
      System.err.println("BusClients: " + how);
    }
    String summary = String.format("puts %d inserted %d reserved %d deleted %d errors %d (%s)", puts.get(),
        inserted.get(), reserved.get(), deleted.get(), errors.get(), how);
    System.err.println("BusClients: stopped: " + summary);
    emit("STOPPED", "main", summary);
  }

  // ------------------------------------------------------------------------------------------

  /** One loop on a context of its own: each step is sent from it, and each reply handled on it. */
  private abstract class Loop {
    final String name;
    final BeanstalkClient client = client();
    final Promise<Void> done = Promise.promise();
    Context context;

    Loop(String name) {
      this.name = name;
    }

    Future<Void> start() {
      context = vertx.getOrCreateContext();
      context.runOnContext(v -> step());
      return done.future();
    }

    abstract void step();

    void later(long millis) {
      if (millis < 1) {
        context.runOnContext(v -> step());
      } else {
        vertx.setTimer(millis, id -> step());
      }
    }

    void failed(String action, Throwable e) {
      errors.incrementAndGet();
      emit("ERROR", name, kind(action, e) + " " + String.valueOf(e.getMessage()));
      later(args.pauseMillis);
    }
  }

  private final class Producer extends Loop {
    private final double intervalNanos = args.rate > 0 ? 1e9 / args.rate : 0;
    private long seq;
    private long nextAt = System.nanoTime();

    Producer(String name) {
      super(name);
    }

    @Override
    void step() {
      if (stopping.get()) {
        done.tryComplete();
        return;
      }
      StringBuilder body = new StringBuilder(args.prefix).append(name.substring("bus-".length()))
          .append('-').append(seq++);
      while (body.length() < args.bodyBytes) {
        body.append('.');
      }
      String text = body.toString();
      puts.incrementAndGet();
      emit("PUT", name, text);
      client.put(args.tube, text, new PutOptions(1L << 31, 0, args.ttr)).onComplete(ar -> {
        if (ar.failed()) {
          failed("put", ar.cause());
          return;
        }
        inserted.incrementAndGet();
        emit("INSERTED", name, ar.result() + " " + text);
        if (intervalNanos == 0) {
          later(0);
        } else {
          // As the TCP producers: a fixed rate, catching up on at most one second of delay.
          long now = System.nanoTime();
          nextAt = Math.max(nextAt + (long) intervalNanos, now - 1_000_000_000L);
          later((nextAt - now) / 1_000_000);
        }
      });
    }
  }

  private final class Consumer extends Loop {
    Consumer(String name) {
      super(name);
    }

    @Override
    void step() {
      if (stopping.get()) {
        finish();
        return;
      }
      client.reserve(args.tube, 1).onComplete(ar -> {
        if (ar.failed()) {
          if (BeanstalkException.is(ar.cause(), io.github.vertxbeanstalkd.contract.Failure.TIMED_OUT)
              || BeanstalkException.is(ar.cause(), io.github.vertxbeanstalkd.contract.Failure.DEADLINE_SOON)) {
            later(0);
          } else {
            failed("reserve", ar.cause());
          }
          return;
        }
        long id = ar.result().id();
        String body = ar.result().bodyAsString();
        reserved.incrementAndGet();
        emit("RESERVED", name, id + " " + body);
        // Deleted even when stopping: the job is handled.
        client.delete(id).onComplete(d -> {
          if (d.failed()) {
            failed("delete", d.cause());
            return;
          }
          deleted.incrementAndGet();
          emit("DELETED", name, id + " " + body);
          later(0);
        });
      });
    }

    /** Ends the session (quit): a job it still holds returns to ready at once. */
    private void finish() {
      client.close().onComplete(ar -> {
        if (ar.failed()) {
          emit("ERROR", name, kind("quit", ar.cause()) + " " + ar.cause().getMessage());
        }
        done.tryComplete();
      });
    }
  }

  // ------------------------------------------------------------------------------------------

  /** A short word for an error, such as put:unreachable-TIMEOUT or delete:NOT_FOUND. */
  static String kind(String action, Throwable e) {
    String what;
    if (e instanceof BeanstalkException be) {
      what = be.failure().name();
    } else if (e instanceof QueueUnreachableException qe) {
      what = "unreachable-" + qe.failureType() + (qe.isSafeToRepeat() ? "" : "-maybe-done");
    } else if (e instanceof ReplyException re) {
      what = "reply-" + re.failureType();
    } else {
      what = e.getClass().getSimpleName();
    }
    return action + ":" + what;
  }

  static void emit(String event, String who, String rest) {
    String line = event + " " + System.nanoTime() + " " + who + (rest.isEmpty() ? "" : " " + escape(rest));
    synchronized (BusClients.class) {
      events.print(line);
      events.print('\n');
      events.flush();
    }
  }

  static String escape(String s) {
    // String.replace gives back the same string when there is nothing to replace.
    return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
  }
}
