package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.Await;
import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.engine.Clock;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** Deploys the real verticles on an ephemeral port before each test; subclasses may change the config. */
@ExtendWith(VertxExtension.class)
public abstract class DeployedServerTest {
  protected Vertx vertx;
  protected BeanstalkServer server;
  protected int port;
  private final List<TestClient> clients = new ArrayList<>();

  protected ServerConfig config() {
    return ServerConfig.forTests();
  }

  /** The engine's clock; a subclass may move time on demand. */
  protected Clock clock() {
    return Clock.system();
  }

  @BeforeEach
  void deploy(Vertx vertx, VertxTestContext ctx) {
    this.vertx = vertx;
    BeanstalkServer.deploy(vertx, config(), clock()).onComplete(ctx.succeeding(s -> {
      server = s;
      port = s.port();
      ctx.completeNow();
    }));
  }

  /** A new connection, closed after the test. */
  protected TestClient connect() {
    TestClient c = TestClient.connect(port);
    clients.add(c);
    return c;
  }

  /** Closes {@code c} after the test, like the clients of {@link #connect()}. */
  protected TestClient track(TestClient c) {
    clients.add(c);
    return c;
  }

  protected TestClient connect(int receiveBufferBytes) {
    TestClient c = TestClient.connect(port, receiveBufferBytes);
    clients.add(c);
    return c;
  }

  @AfterEach
  void closeClients() {
    clients.forEach(TestClient::close);
  }

  /** Waits for {@code f} from the test's thread. */
  protected static <T> T await(io.vertx.core.Future<T> f) {
    return f.toCompletionStage().toCompletableFuture().join();
  }

  /** Whether {@code probe} holds within {@code millis} ({@link Await#eventually}); for effects that cross connections. */
  protected static boolean eventually(int millis, java.util.function.BooleanSupplier probe) throws InterruptedException {
    return Await.eventually(millis, probe);
  }
}
