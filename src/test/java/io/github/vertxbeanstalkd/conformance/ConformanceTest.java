package io.github.vertxbeanstalkd.conformance;

import io.github.vertxbeanstalkd.Server;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Byte-exact differential conformance: replays the conversations recorded from beanstalkd 1.12
 * (src/test/resources/conformance, format in {@link CaseFile}) against our real server, deployed
 * fresh for every case on an ephemeral port. beanstalkd is not needed here; re-record with
 * {@code python3 src/test/conformance-recorder/record.py}.
 */
class ConformanceTest {
  private static final String RESOURCE_DIR = "/conformance";
  private static final long DEPLOY_SECONDS = 10;
  private static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void closeVertx() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(DEPLOY_SECONDS, TimeUnit.SECONDS);
  }

  @TestFactory
  Stream<DynamicNode> recordedCases() throws IOException, URISyntaxException {
    Path dir = Path.of(ConformanceTest.class.getResource(RESOURCE_DIR).toURI());
    List<Path> files;
    try (Stream<Path> listing = Files.list(dir)) {
      files = listing.filter(p -> p.toString().endsWith(".cases")).sorted().toList();
    }
    Set<String> names = new HashSet<>();
    List<DynamicNode> containers = new ArrayList<>();
    for (Path file : files) {
      List<DynamicNode> tests = new ArrayList<>();
      for (ConformanceCase c : CaseFile.load(file)) {
        if (!names.add(c.name())) {
          throw new IllegalStateException("duplicate case name " + c.name() + " in " + file);
        }
        URI source = URI.create("classpath:" + RESOURCE_DIR + "/" + c.file() + "?line=" + c.line());
        tests.add(DynamicTest.dynamicTest(c.name(), source, () -> replay(c)));
      }
      containers.add(DynamicContainer.dynamicContainer(file.getFileName().toString(), tests));
    }
    return containers.stream();
  }

  private static void replay(ConformanceCase c) throws Exception {
    ServerConfig config = c.maxJobSizeBytes() == null
        ? ServerConfig.forTests()
        : ServerConfig.forTests().withMaxJobSize(c.maxJobSizeBytes());
    int port = Server.deploy(vertx, config).toCompletionStage().toCompletableFuture()
        .get(DEPLOY_SECONDS, TimeUnit.SECONDS);
    try {
      new CaseReplay(c, port, () -> Server.drain(vertx)).run();
    } finally {
      // The engine listens on a fixed event-bus address: undeploy everything before the next case.
      List<Future<Void>> undeployed = vertx.deploymentIDs().stream().map(vertx::undeploy).toList();
      Future.all(undeployed).toCompletionStage().toCompletableFuture().get(DEPLOY_SECONDS, TimeUnit.SECONDS);
    }
  }
}
