package io.github.vertxbeanstalkd;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What this JVM made of the start cache its command line names (src/site/markdown/start-up.md): the
 * AOT cache of Java 25 and later ({@code -XX:AOTCache}), or an AppCDS archive
 * ({@code -XX:SharedArchiveFile}), in use, or left aside because it is missing or stale.
 */
record StartCache(String option, String path, boolean isInUse, boolean isPresent) {
  /** The first Java release with the AOT cache this project trains (JEP 483, 514, 515). */
  static final int AOT_CACHE_FEATURE = 25;

  /** The cache this JVM was told to use, or null when it was told of none it can use. */
  static StartCache ofThisJvm() {
    return of(ManagementFactory.getRuntimeMXBean().getInputArguments(), Runtime.version().feature(),
        System.getProperty("java.vm.info", ""));
  }

  /**
   * The cache named in {@code jvmArguments} (the last of its kind, as the JVM reads them), given
   * the JVM's feature release and its {@code java.vm.info}, which says "sharing" when an archive is
   * mapped; null when none is named that this release reads.
   */
  static StartCache of(List<String> jvmArguments, int feature, String vmInfo) {
    String option = null;
    String path = null;
    for (String argument : jvmArguments) {
      // Java 17 ignores -XX:AOTCache (conf/jvm.options lets it pass as an unrecognized option).
      for (String name : feature >= AOT_CACHE_FEATURE
          ? List.of("AOTCache", "SharedArchiveFile") : List.of("SharedArchiveFile")) {
        String prefix = "-XX:" + name + "=";
        if (argument.startsWith(prefix)) {
          option = name;
          path = argument.substring(prefix.length());
        }
      }
    }
    if (path == null) {
      return null;
    }
    boolean isPresent = Files.isRegularFile(Path.of(path));
    // A JVM that cannot map an AOT cache shares nothing; one that cannot map an AppCDS archive still
    // shares the JDK's own classes, so there "sharing" says nothing of a missing file.
    boolean isInUse = vmInfo.contains("sharing") && (option.equals("AOTCache") || isPresent);
    return new StartCache(option, path, isInUse, isPresent);
  }

  /** The log line: in use, or why not and how to make it again. */
  String describe() {
    if (isInUse) {
      return "start cache " + path + " in use (-XX:" + option + ")";
    }
    return "start cache " + path + " not used: " + (isPresent
        ? "made for another jar or JVM, or damaged (the JVM's lines above say which)"
        : "no such file") + "; starting without it. src/build/train-start-cache.sh makes it"
        + " (mvn package does on Java " + AOT_CACHE_FEATURE + ")";
  }
}
