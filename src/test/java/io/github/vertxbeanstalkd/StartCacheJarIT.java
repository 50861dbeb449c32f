package io.github.vertxbeanstalkd;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start cache on the packaged server started as a user starts it
 * ({@code java @conf/jvm.options -jar target/vertx-beanstalkd.jar}): the one mvn package trains on
 * Java 25 is used, and a missing or unusable one is left aside with a warning while the server
 * starts and answers as without it.
 *
 * <p>Runs in the integration-test phase of {@code mvn verify}, once the jar exists.
 */
class StartCacheJarIT {
  private static final Path JAR = Path.of("target", "vertx-beanstalkd.jar");
  private static final Path JVM_OPTIONS = Path.of("conf", "jvm.options");
  private static final Path TRAINED = Path.of("target", "vertx-beanstalkd.aot");
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
  private static final long START_MILLIS = 60_000;
  private static final boolean HAS_AOT_CACHE = Runtime.version().feature() >= StartCache.AOT_CACHE_FEATURE;

  @TempDir
  Path tmp;
  private ChildJvm child;

  @BeforeEach
  void needsTheJar() {
    Assumptions.assumeTrue(Files.isRegularFile(JAR), "needs " + JAR + ": runs in mvn verify after package");
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (child != null) {
      child.close();
    }
  }

  @Test
  void theTrainedCacheIsInUse() throws Exception {
    // A cache older than the jar was trained on another build of it (-DskipStartCache, a package on Java 17).
    Assumptions.assumeTrue(HAS_AOT_CACHE && Files.isRegularFile(TRAINED)
            && Files.getLastModifiedTime(TRAINED).compareTo(Files.getLastModifiedTime(JAR)) > 0,
        "needs Java 25 and " + TRAINED + " trained on this jar (mvn package trains it on Java 25)");
    answersPut(JVM_OPTIONS);
    child.await(Pattern.compile("INFO .*start cache " + Pattern.quote(TRAINED.toString()) + " in use"), START_MILLIS);
  }

  @Test
  void aMissingCacheIsLeftAsideWithAWarning() throws Exception {
    Path missing = tmp.resolve("missing.aot");
    answersPut(optionsNaming(missing));
    child.await(HAS_AOT_CACHE
        ? Pattern.compile("WARN .*start cache " + Pattern.quote(missing.toString()) + " not used: no such file")
        : Pattern.compile("INFO .*start cache: none \\(Java \\d+"), START_MILLIS);
  }

  @Test
  void aCacheThisJvmCannotUseIsLeftAsideWithAWarning() throws Exception {
    Path damaged = tmp.resolve("damaged.aot");
    Files.write(damaged, new byte[64 * 1024]);
    answersPut(optionsNaming(damaged));
    child.await(HAS_AOT_CACHE
        ? Pattern.compile("WARN .*start cache " + Pattern.quote(damaged.toString()) + " not used: made for another")
        : Pattern.compile("INFO .*start cache: none \\(Java \\d+"), START_MILLIS);
  }

  /** conf/jvm.options, then {@code cache} as the AOT cache: the JVM takes the last one named. */
  private Path optionsNaming(Path cache) throws IOException {
    Path options = tmp.resolve("jvm.options");
    Files.writeString(options, Files.readString(JVM_OPTIONS) + "\n-XX:AOTCache=" + cache + "\n");
    return options;
  }

  /** Starts the jar with {@code options} and checks that it stores a job. */
  private void answersPut(Path options) throws IOException, InterruptedException {
    JsonObject conf = new JsonObject().put("port", 0).put("http", new JsonObject().put("port", 0));
    child = ChildJvm.startJar(options, JAR, List.of("-conf", conf.encode()), tmp.resolve("server.log"));
    int port = Integer.parseInt(child.await(LISTENING, START_MILLIS).group(1));
    try (TestClient client = TestClient.connect(port)) {
      client.send("put 0 0 60 1", "x").expect("INSERTED 1");
    }
  }
}
