package io.github.vertxbeanstalkd.persistence;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Collects what the persistence package logs at WARN and above while a test runs. */
final class LogCapture implements AutoCloseable {
  private final Logger logger = (Logger) LoggerFactory.getLogger("io.github.vertxbeanstalkd.persistence");
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  LogCapture() {
    appender.start();
    logger.addAppender(appender);
  }

  List<String> warnings() {
    return appender.list.stream()
        .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
  }
}
