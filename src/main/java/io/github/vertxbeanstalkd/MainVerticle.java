package io.github.vertxbeanstalkd;

import io.github.vertxbeanstalkd.config.ConfigLoader;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The launcher's main verticle: reads the configuration and deploys the server. */
public final class MainVerticle extends VerticleBase {
  private static final Logger log = LoggerFactory.getLogger(MainVerticle.class);

  @Override
  public Future<?> start() {
    return ConfigLoader.load(vertx, config())
        .onSuccess(c -> log.info("config: host={} port={} maxJobSize={} binlog={}", c.host(), c.port(),
            c.maxJobSizeBytes(), c.binlog().isEnabled()
                ? c.binlog().dir() + " fsync=" + c.binlog().fsync() + " segmentSize=" + c.binlog().segmentSizeBytes()
                : "off (jobs in memory only)"))
        .compose(c -> Server.deploy(vertx, c).map(port -> {
          log.info("vertx-beanstalkd {} listening on {}:{} ({} transport)", Main.version(), c.host(), port,
              vertx.isNativeTransportEnabled() ? "epoll" : "nio");
          return port;
        }))
        .onFailure(e -> log.error("start-up failed: {}", e.getMessage()));
  }
}
