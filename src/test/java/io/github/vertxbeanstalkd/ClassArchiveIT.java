package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The class-data-sharing archive that {@code mvn package} builds
 * ({@link io.github.vertxbeanstalkd.warmup.ClassArchive}): the server started as the README starts
 * it maps its own classes from it. Runs in the integration-test phase, once the jar and the archive
 * exist.
 */
class ClassArchiveIT {
  private static final Path JAR = Path.of("target", "vertx-beanstalkd.jar");
  private static final Path ARCHIVE = Path.of("target", "vertx-beanstalkd.jsa");
  private static final Path BASE_ARCHIVE =
      Path.of(System.getProperty("java.home"), "lib", "server", "classes.jsa");

  @Test
  void theServerStartedWithJvmOptionsLoadsItsClassesFromTheArchive() throws Exception {
    Assumptions.assumeTrue(Files.isRegularFile(JAR), "needs " + JAR + ": runs in mvn verify after package");
    Assumptions.assumeTrue(Files.isRegularFile(BASE_ARCHIVE), "this JDK has no base CDS archive");
    assertTrue(Files.isRegularFile(ARCHIVE), "mvn package should have built " + ARCHIVE);
    // -Xshare:on fails the start instead of running without the archive; --help loads the
    // launcher (Main) and exits.
    Process java = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "@conf/jvm.options", "-Xshare:on", "-Xlog:class+load=info", "-jar", JAR.toString(), "--help"))
        .redirectErrorStream(true).start();
    String output = read(java);
    assertTrue(java.waitFor(60, TimeUnit.SECONDS), "java --help did not end");
    assertEquals(0, java.exitValue(), output);
    assertTrue(output.contains("io.github.vertxbeanstalkd.Main source: shared objects file (top)"),
        "Main was not loaded from the archive:\n" + output.lines().filter(l -> l.contains("vertxbeanstalkd"))
            .limit(5).toList());
  }

  private static String read(Process process) throws IOException {
    return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }
}
