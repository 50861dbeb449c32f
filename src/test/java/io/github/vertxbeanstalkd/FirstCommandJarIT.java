package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertFalse;

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
 * The first client's first command on the packaged server, started as a user starts it: the
 * launcher keeps Netty's allocation events off, so that command does not load the Flight
 * Recorder's machinery on the event loop ({@link Main#quietNettyAllocatorEvents()}), and a user who
 * asks for the events still gets them.
 *
 * <p>Runs in the integration-test phase of {@code mvn verify}, once the jar exists. Whether the
 * recorder loaded is read from the JVM's own class-loading log ({@code -Xlog:class+load}).
 */
class FirstCommandJarIT {
  private static final Path JAR = Path.of("target", "vertx-beanstalkd.jar");
  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
  /** A class the recorder loads when an event's state is first asked for, and not before. */
  private static final String RECORDER_SETTINGS = "jdk.jfr.internal.SettingsManager ";
  private static final long START_MILLIS = 60_000;

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
  void theFirstPutLoadsNoFlightRecorder() throws Exception {
    firstPut("");
    assertFalse(child.log(Integer.MAX_VALUE).contains(RECORDER_SETTINGS), "the first put loaded the Flight Recorder");
  }

  @Test
  void nettyEventsStayAvailableOnRequest() throws Exception {
    firstPut("-Dio.netty.jfr.enabled=true\n");
    child.await(Pattern.compile(Pattern.quote(RECORDER_SETTINGS)), START_MILLIS);
  }

  /** conf/jvm.options plus the class-loading log and {@code extra}, then one put answered. */
  private void firstPut(String extra) throws IOException, InterruptedException {
    Path options = tmp.resolve("jvm.options");
    Files.writeString(options, Files.readString(Path.of("conf", "jvm.options"))
        + "\n-Xlog:class+load=info:stdout\n" + extra);
    JsonObject conf = new JsonObject().put("port", 0).put("http", new JsonObject().put("port", 0));
    child = ChildJvm.startJar(options, JAR, List.of("-conf", conf.encode()), tmp.resolve("server.log"));
    int port = Integer.parseInt(child.await(LISTENING, START_MILLIS).group(1));
    try (TestClient client = TestClient.connect(port)) {
      client.send("put 0 0 60 1", "x").expect("INSERTED 1");
    }
  }
}
