package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Every series the Grafana dashboard in conf/ queries is one a server with a binlog exports. */
@ExtendWith(VertxExtension.class)
class DashboardSeriesTest {
  private static final Pattern SERIES = Pattern.compile("beanstalkd_[a-z_]+");

  @Test
  void theDashboardQueriesOnlySeriesThatExist(Vertx vertx, @TempDir Path dir) throws Exception {
    Set<String> queried = new TreeSet<>();
    Matcher m = SERIES.matcher(Files.readString(Path.of("conf/grafana-dashboard.json")));
    while (m.find()) {
      queried.add(m.group());
    }
    assertFalse(queried.isEmpty());
    BeanstalkServer server = vertx.executeBlocking(() -> null).compose(v -> BeanstalkServer.deploy(vertx,
        new JsonObject().put("port", 0).put("http", new JsonObject().put("port", 0))
            .put("binlog", new JsonObject().put("dir", dir.toString()).put("fsync", "always"))))
        .toCompletionStage().toCompletableFuture().join();
    try (TestClient c = TestClient.connect(server.port())) {
      c.send("put 0 0 60 1", "x").expect("INSERTED 1");
      String metrics = new Http(server.httpPort()).get("/metrics").body();
      for (String series : queried) {
        assertTrue(metrics.contains("\n" + series + "{") || metrics.contains("\n" + series + " "),
            series + " is queried by the dashboard but not exported");
      }
    } finally {
      server.close().toCompletionStage().toCompletableFuture().join();
    }
  }
}
