package io.github.vertxbeanstalkd.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;

/**
 * Coverage-guided fuzzing of configuration: fuzzed {@code -conf} JSON (as text, or built from the
 * real keys with values of every JSON type) and fuzzed environment variables go through the
 * launcher's early reads ({@link ServerConfig#isMetricsEnabled}, {@link ServerConfig#clusterTls}) and
 * the production {@link ConfigLoader}. Property: each gives a config or one clear line that starts
 * with {@code config: } as README.md promises, never another exception.
 */
class ConfigFuzzTest {
  /** Every key of README.md's table, dotted and nested, its environment variables, and near misses. */
  private static final List<String> KEYS = List.of("host", "port", "maxJobSize", "tcp", "tcp.enabled",
      "tcp.warmUp", "eventBus", "eventBus.enabled", "eventBus.address", "binlog", "binlog.dir", "binlog.fsync",
      "binlog.segmentSize", "binlog.recover", "replication", "replication.enabled", "replication.group",
      "replication.minAcks", "replication.ackTimeoutMillis", "replication.whenTooFewStandbys", "tls", "tls.port",
      "tls.host", "tls.cert", "tls.key", "tls.clientCa", "cluster", "cluster.tls", "cluster.tls.cert",
      "cluster.tls.key", "cluster.tls.ca", "http", "http.enabled", "http.host", "http.port", "http.token",
      "metrics", "metrics.enabled", "shutdownGraceMillis", "maxMemory", "maxConnections", "enabled", "address",
      "dir", "fsync", "segmentSize", "recover", "group", "minAcks", "ackTimeoutMillis", "whenTooFewStandbys",
      "port", "cert", "key", "clientCa", "ca", "token", "warmUp", "vertx.options", "clusterx",
      "BEANSTALKD_PORT", "BEANSTALKD_HOST", "BEANSTALKD_MAX_JOB_SIZE", "BEANSTALKD_BINLOG_FSYNC",
      "BEANSTALKD_BINLOG_DIR", "BEANSTALKD_BINLOG_SEGMENT_SIZE", "BEANSTALKD_BINLOG_RECOVER",
      "BEANSTALKD_METRICS_ENABLED", "BEANSTALKD_TCP_ENABLED", "BEANSTALKD_TCP_WARM_UP", "BEANSTALKD_HTTP_PORT",
      "BEANSTALKD_HTTP_TOKEN", "BEANSTALKD_TLS_PORT", "BEANSTALKD_TLS_CERT", "BEANSTALKD_REPLICATION_ENABLED",
      "BEANSTALKD_REPLICATION_MIN_ACKS", "BEANSTALKD_REPLICATION_WHEN_TOO_FEW_STANDBYS",
      "BEANSTALKD_CLUSTER_TLS_CERT", "BEANSTALKD_EVENTBUS_ADDRESS", "BEANSTALKD_MAX_MEMORY",
      "BEANSTALKD_MAX_CONNECTIONS", "BEANSTALKD_SHUTDOWN_GRACE_MILLIS");
  private static Vertx vertx;

  @AfterAll
  static void closeVertx() throws Exception {
    if (vertx != null) {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @FuzzTest(maxDuration = "5s")
  void configFileAndEnvironment(FuzzedDataProvider data) throws Exception {
    Map<String, String> environment = new HashMap<>();
    for (int n = data.consumeInt(0, 3); n > 0; n--) {
      environment.put(data.pickValue(KEYS), data.consumeString(40));
    }
    JsonObject config;
    if (data.consumeBoolean()) {
      try {
        config = new JsonObject(data.consumeRemainingAsString());
      } catch (DecodeException | ClassCastException notAnObject) {
        return; // the launcher refuses a -conf that is not a JSON object before our code runs
      }
    } else {
      config = object(data, 0);
    }
    expectConfigOrClearError(() -> ServerConfig.isMetricsEnabled(config, environment));
    expectConfigOrClearError(() -> ServerConfig.clusterTls(config, environment));
    JsonObject withEnvironment = config.copy();
    environment.forEach(withEnvironment::put);
    expectConfigOrClearError(() -> {
      if (vertx == null) {
        vertx = Vertx.vertx();
      }
      try {
        return ConfigLoader.load(vertx, withEnvironment).await(10, TimeUnit.SECONDS);
      } catch (VertxException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    });
  }

  private static JsonObject object(FuzzedDataProvider data, int depth) {
    JsonObject o = new JsonObject();
    for (int n = data.consumeInt(0, 6); n > 0; n--) {
      String key = data.consumeBoolean() ? data.pickValue(KEYS) : data.consumeString(12);
      o.put(key, value(data, depth));
    }
    return o;
  }

  private static Object value(FuzzedDataProvider data, int depth) {
    switch (data.consumeInt(0, depth < 2 ? 9 : 7)) {
      case 0: return null;
      case 1: return data.consumeBoolean();
      case 2: return data.consumeInt();
      case 3: return data.consumeLong();
      case 4: return data.consumeRegularDouble();
      case 5: return data.consumeString(30);
      case 6: return data.pickValue(List.of("always", "never", "serve", "refuse", "50", "0", "-1", "true", "",
          "1e3", "4096", "1073741824", "1073741825", "9223372036854775808", "/tmp/x", "127.0.0.1"));
      case 7: return (long) data.consumeInt(-2, 70_000);
      case 8: return object(data, depth + 1);
      default: return new JsonArray().add(value(data, depth + 1));
    }
  }

  private interface Read {
    Object run() throws Exception;
  }

  /** A config, or an IllegalArgumentException whose message is one line starting "config: ". */
  private static void expectConfigOrClearError(Read read) throws Exception {
    try {
      read.run();
    } catch (IllegalArgumentException e) {
      String message = e.getMessage();
      assertTrue(message != null && message.startsWith("config: ")
          && message.chars().noneMatch(c -> c < 0x20 || c == 0x85 || c == 0x2028 || c == 0x2029),
          () -> "not one clear line: " + message);
    }
  }
}
