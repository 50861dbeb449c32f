package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ServerLoggingTest {
  @Test
  void configuresOneLinePerEventOnStandardErrorAndTheLibrariesLevels() {
    LoggerContext context = new LoggerContext();
    assertEquals(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY, new ServerLogging().configure(context));
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertEquals(Level.INFO, root.getLevel());
    ConsoleAppender<?> stderr = assertInstanceOf(ConsoleAppender.class, root.getAppender("STDERR"));
    assertTrue(stderr.isStarted());
    assertEquals("System.err", stderr.getTarget());
    assertEquals("%d{HH:mm:ss.SSS} %-5level %logger{0} - %msg%n",
        assertInstanceOf(PatternLayoutEncoder.class, stderr.getEncoder()).getPattern());
    assertEquals(Level.WARN, context.getLogger("io.netty").getLevel());
    assertEquals(Level.WARN, context.getLogger("com.hazelcast").getLevel());
    assertEquals(Level.INFO, context.getLogger("com.hazelcast.internal.cluster.impl.MembershipManager").getLevel());
    assertEquals(Level.OFF, context.getLogger("io.vertx.launcher.application.VertxApplication").getLevel());
    // What is not named logs at the root's level.
    assertNull(context.getLogger("io.github.vertxbeanstalkd").getLevel());
  }

  @Test
  void leavesAConfigurationFileNamedOnTheCommandLineToLogback() {
    String before = System.getProperty("logback.configurationFile");
    System.setProperty("logback.configurationFile", "/etc/vertx-beanstalkd/logback.xml");
    try {
      LoggerContext context = new LoggerContext();
      assertEquals(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY, new ServerLogging().configure(context));
      assertNull(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR"));
      assertEquals(Level.DEBUG, context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel(), "untouched: logback's default");
    } finally {
      if (before == null) {
        System.clearProperty("logback.configurationFile");
      } else {
        System.setProperty("logback.configurationFile", before);
      }
    }
  }

  @Test
  void isTheConfigurationLogbackFindsAsAService() {
    // This JVM's logging was set up by logback itself at the first logger: through the service file.
    LoggerFactory.getLogger(ServerLoggingTest.class).info("logging configured by ServerLogging");
    LoggerContext context = assertInstanceOf(LoggerContext.class, LoggerFactory.getILoggerFactory());
    assertEquals(Level.WARN, context.getLogger("io.netty").getLevel());
    assertInstanceOf(ConsoleAppender.class, context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR"));
  }
}
