package io.github.vertxbeanstalkd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.vertxbeanstalkd.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The typed client through a failover (REPLICATION.md), against a {@link FakeQueue} whose address
 * goes away and comes back: what is safe to repeat is sent again, the rest fails fast and says why.
 */
@ExtendWith(VertxExtension.class)
class FailoverRetryTest {
  private static final String ADDRESS = "fake-queue";
  private static final long WAIT_SECONDS = 10;

  private Vertx vertx;
  private FakeQueue queue;
  /** Requests sent to the address, answered or not: a retry is one more. */
  private final AtomicInteger sends = new AtomicInteger();

  @BeforeEach
  void deploy(Vertx vertx) {
    this.vertx = vertx;
    queue = new FakeQueue(ADDRESS);
    await(vertx.deployVerticle(queue));
    vertx.eventBus().addOutboundInterceptor(delivery -> {
      if (ADDRESS.equals(delivery.message().address())) {
        sends.incrementAndGet();
      }
      delivery.next();
    });
  }

  private BeanstalkClient client(BeanstalkClientOptions options) {
    return BeanstalkClient.create(vertx, options.withAddress(ADDRESS));
  }

  @Test
  void aPeekDuringTheGapSucceedsOnceTheAddressIsBack() {
    BeanstalkClient client = client(new BeanstalkClientOptions());
    long id = await(client.put("t", "kept"));
    await(queue.down());
    int before = sends.get();
    Future<BeanstalkJob> peek = client.peek(id);
    eventually(() -> sends.get() >= before + 3);
    assertFalse(peek.isComplete(), "still retrying while no node consumes the address");
    await(queue.up());
    assertEquals("kept", await(peek).bodyAsString());
  }

  @Test
  void aPutDuringTheGapIsSentAgainAndStoredOnce() {
    BeanstalkClient client = client(new BeanstalkClientOptions());
    await(queue.down());
    int before = sends.get();
    Future<Long> put = client.put("t", "during the gap");
    eventually(() -> sends.get() >= before + 3);
    await(queue.up());
    assertEquals(1L, await(put));
    assertEquals(1, queue.received("put"), "NO_HANDLERS: the tries before reached no node");
    assertEquals(1, queue.jobCount());
  }

  @Test
  void aPutWhoseReplyIsLostFailsAtOnceSayingItMayHaveHappened() {
    BeanstalkClient client = client(new BeanstalkClientOptions().withRequestTimeoutMillis(300));
    queue.swallow("put", 1);
    long start = System.nanoTime();
    QueueUnreachableException e = unreachable(client.put("t", "lost reply"));
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "failed fast");
    assertEquals(ReplyFailure.TIMEOUT, e.failureType());
    assertEquals("put", e.action());
    assertFalse(e.isSafeToRepeat());
    assertTrue(e.getMessage().contains("may or may not have happened"), e.getMessage());
    assertEquals(1, queue.received("put"), "a put whose outcome is unknown is not sent again");
  }

  @Test
  void aNewPrimarysAnnouncementEndsTheRequestsInFlightAtOnce() {
    // A long send timeout: without the announcement these would wait a minute for the dead primary.
    BeanstalkClient client = client(new BeanstalkClientOptions().withRequestTimeoutMillis(60_000));
    long id = await(client.put("t", "x"));
    queue.swallow("put", 1);
    queue.swallow("peek", 1);
    Future<Long> put = client.put("t", "lost with the old primary");
    Future<BeanstalkJob> peek = client.peek(id);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while ((queue.received("put") < 2 || queue.received("peek") < 1) && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    long start = System.nanoTime();
    vertx.eventBus().publish(PrimaryChanges.address(ADDRESS), new io.vertx.core.json.JsonObject().put("term", 7));
    QueueUnreachableException e = unreachable(put);
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "ended at once, not after its timeout");
    assertFalse(e.isSafeToRepeat(), "a put to the old primary may have happened");
    assertEquals(id, await(peek).id(), "a peek is sent again, to whoever answers now");
    assertEquals(2, queue.received("peek"));
  }

  @Test
  void aPeekWhoseReplyIsLostIsSentAgain() {
    BeanstalkClient client = client(new BeanstalkClientOptions().withRequestTimeoutMillis(300));
    long id = await(client.put("t", "x"));
    queue.swallow("peek", 1);
    assertEquals(id, await(client.peek(id)).id());
    assertEquals(2, queue.received("peek"));
  }

  @Test
  void aGapLongerThanTheRetriesFailsWithAClearError() {
    BeanstalkClient client = client(new BeanstalkClientOptions().withFailoverRetryMillis(300));
    await(queue.down());
    long start = System.nanoTime();
    QueueUnreachableException put = unreachable(client.put("t", "x"));
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "gave up after its retries");
    assertEquals(ReplyFailure.NO_HANDLERS, put.failureType());
    assertTrue(put.isSafeToRepeat());
    assertTrue(put.getMessage().startsWith("put: no node consumed the queue's address 'fake-queue' for "),
        put.getMessage());
    assertTrue(put.getMessage().contains("it did not happen and is safe to send again"), put.getMessage());
    QueueUnreachableException peek = unreachable(client.peek(1));
    assertEquals(ReplyFailure.NO_HANDLERS, peek.failureType());
    int before = sends.get();
    unreachable(client.close());
    assertEquals(before + 1, sends.get(), "a quit that reached no node is not sent again");
  }

  @Test
  void aRetriedReserveWaitsOnlyWhatIsLeftOfItsTimeout() {
    BeanstalkClient client = client(new BeanstalkClientOptions());
    await(queue.down());
    int before = sends.get();
    Future<BeanstalkJob> reserve = client.reserve("t", 3);
    // Five tries: 50 + 100 + 200 + 400 ms of back-off have passed.
    eventually(() -> sends.get() >= before + 5);
    await(queue.up());
    await(client(new BeanstalkClientOptions()).put("t", "x"));
    assertEquals("x", await(reserve).bodyAsString());
    long timeoutSeconds = queue.receivedRequests.stream().filter(r -> r.getString("action").equals("reserve"))
        .findFirst().orElseThrow().getLong("timeout");
    assertTrue(timeoutSeconds < 3, "waited " + timeoutSeconds + " s more");
  }

  @Test
  void consumeKeepsConsumingAcrossAFailover() {
    BeanstalkClientOptions options = new BeanstalkClientOptions().withReserveMarginMillis(200);
    BeanstalkClient client = client(options);
    for (int i = 0; i < 5; i++) {
      await(client.put("t", "before-" + i));
    }
    Set<String> seen = ConcurrentHashMap.newKeySet();
    JobConsumer consumer = client.consume(List.of("t"), ConsumeOptions.DEFAULTS.withConcurrency(2)
        .withReserveTimeoutSeconds(1), job -> {
          seen.add(job.bodyAsString());
          return Future.succeededFuture();
        });
    eventually(() -> seen.size() == 5);
    await(queue.down());
    int before = sends.get();
    List<Future<Long>> puts = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      puts.add(client.put("t", "after-" + i));
    }
    eventually(() -> sends.get() >= before + 15);
    await(queue.up());
    await(Future.all(puts));
    eventually(() -> seen.size() == 10);
    eventually(() -> queue.jobCount() == 0);
    await(consumer.stop());
    assertEquals(10, consumer.handledCount());
    assertEquals(0, consumer.failedCount());
  }

  private static QueueUnreachableException unreachable(Future<?> f) {
    try {
      Object value = await(f);
      return fail("expected the queue to be unreachable, got " + value);
    } catch (RuntimeException e) {
      return assertInstanceOf(QueueUnreachableException.class, e);
    }
  }

  private static void eventually(BooleanSupplier probe) {
    Await.until("the probe", probe, TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
  }

  private static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | CompletionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new AssertionError(e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError("no reply within " + WAIT_SECONDS + " s", e);
    }
  }
}
