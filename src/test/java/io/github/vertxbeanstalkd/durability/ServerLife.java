package io.github.vertxbeanstalkd.durability;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.config.BinlogSection;
import io.github.vertxbeanstalkd.config.FsyncSetting;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One life of an in-process server on a binlog directory: deployed on its own Vert.x instance (or
 * on a given one), ended by closing that instance or by undeploying every verticle.
 */
final class ServerLife implements AutoCloseable {
  private static final long WAIT_SECONDS = 20;

  private final Vertx vertx;
  private final boolean ownsVertx;
  private final int port;
  private boolean isEnded;

  private ServerLife(Vertx vertx, boolean ownsVertx, int port) {
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
    this.port = port;
  }

  static ServerConfig config(Path dir, FsyncSetting fsync, long segmentSizeBytes, boolean isRecoverRequested) {
    return ServerConfig.forTests().withBinlog(new BinlogSection(dir, fsync, segmentSizeBytes, isRecoverRequested));
  }

  static ServerConfig config(Path dir) {
    return config(dir, FsyncSetting.always(), BinlogSection.DEFAULT_SEGMENT_SIZE, false);
  }

  /** Deploys on a fresh Vert.x instance that {@link #close()} closes. */
  static ServerLife start(ServerConfig config) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      return new ServerLife(vertx, true, await(BeanstalkServer.deploy(vertx, config).map(BeanstalkServer::port)));
    } catch (Exception e) {
      await(vertx.close());
      throw e;
    }
  }

  /** Deploys on {@code vertx}; {@link #close()} undeploys every verticle and leaves it running. */
  static ServerLife startOn(Vertx vertx, ServerConfig config) throws Exception {
    return new ServerLife(vertx, false, await(BeanstalkServer.deploy(vertx, config).map(BeanstalkServer::port)));
  }

  /** Deploys on a fresh Vert.x instance, expects start-up to fail, and returns why. */
  static Throwable startFailure(ServerConfig config) throws Exception {
    try (ServerLife unexpected = start(config)) {
      throw new AssertionError("the server started on port " + unexpected.port);
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  int port() {
    return port;
  }

  @Override
  public void close() throws Exception {
    if (isEnded) {
      return;
    }
    isEnded = true;
    if (ownsVertx) {
      await(vertx.close());
      return;
    }
    for (String id : new ArrayList<>(vertx.deploymentIDs())) {
      await(vertx.undeploy(id));
    }
  }

  private static <T> T await(Future<T> f) throws ExecutionException, InterruptedException, TimeoutException {
    return f.toCompletionStage().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
  }
}
