package io.github.vertxbeanstalkd;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * The server's logging: one line per event on standard error, and the levels of the libraries'
 * loggers, set in code through logback's {@link Configurator} service instead of a logback.xml in
 * the jar. Reading an XML file took logback about a tenth of a second at every start (the XML
 * parser's classes, then reflection over the configuration's model), ahead of the open port
 * (src/site/markdown/start-up.md). An operator's own configuration still wins: with
 * {@code -Dlogback.configurationFile=...}, or a logback.xml or logback-test.xml on the class path
 * (an app that embeds the server), logback reads that file as usual.
 */
public final class ServerLogging extends ContextAwareBase implements Configurator {
  /** Time, level, the logger's simple name, the message. */
  static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{0} - %msg%n";
  /** The libraries' loggers, and what each says; everything else logs at INFO. */
  static final Map<String, Level> LEVELS = Map.ofEntries(
      Map.entry("io.netty", Level.WARN),
      // Vert.x's event-bus metrics register one gauge twice at start; Micrometer warns about it, harmlessly.
      Map.entry("io.micrometer.core.instrument.MeterRegistry", Level.ERROR),
      Map.entry("com.hazelcast", Level.WARN),
      // But say who is in the cluster whenever that changes (the member list), when this node merges
      // back after a split (MERGING, MERGED), and when the CP Subsystem's members change: what an
      // operator needs to follow a failover in the log.
      Map.entry("com.hazelcast.internal.cluster.impl.MembershipManager", Level.INFO),
      Map.entry("com.hazelcast.internal.cluster.impl.ClusterMergeTask", Level.INFO),
      Map.entry("com.hazelcast.core.LifecycleService", Level.INFO),
      Map.entry("com.hazelcast.cp.internal.MetadataRaftGroupManager", Level.INFO),
      // Warns at every start that the CP subsystem (which Vert.x does not use) is off.
      Map.entry("com.hazelcast.cp.CPSubsystem", Level.ERROR),
      // The launcher logs a failure as several lines with a stack trace; Main's hooks log it as one.
      Map.entry("io.vertx.launcher.application.VertxApplication", Level.OFF));

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (hasConfigurationOfItsOwn()) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(stderr);
    LEVELS.forEach((name, level) -> context.getLogger(name).setLevel(level));
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** Whether logback would find a configuration file: named on the command line, or on the class path. */
  static boolean hasConfigurationOfItsOwn() {
    ClassLoader loader = ServerLogging.class.getClassLoader();
    return System.getProperty("logback.configurationFile") != null
        || loader.getResource("logback-test.xml") != null || loader.getResource("logback.xml") != null;
  }
}
