package io.github.vertxbeanstalkd.metrics;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code beanstalkd_forwarded_commands_awaiting_reply}: on a node whose connections are forwarded,
 * each scrape reads the count the forwarding keeps; elsewhere the series is not there.
 */
class ForwardedCommandsSeriesTest {
  @Test
  void eachScrapeReadsTheCountOfForwardedCommandsAwaitingReplies() {
    AtomicLong awaiting = new AtomicLong(3);
    ServerMetrics metrics = ServerMetrics.create(false, null, awaiting::get);

    String first = metrics.scrape();
    awaiting.set(0);
    String second = metrics.scrape();

    assertTrue(first.contains("# TYPE beanstalkd_forwarded_commands_awaiting_reply gauge\n"), first);
    assertTrue(first.contains("\nbeanstalkd_forwarded_commands_awaiting_reply 3.0\n"), first);
    assertTrue(second.contains("\nbeanstalkd_forwarded_commands_awaiting_reply 0.0\n"), second);
  }

  @Test
  void aNodeWhoseConnectionsAreNotForwardedHasNoSuchSeries() {
    String text = ServerMetrics.create(false).scrape();

    assertFalse(text.contains("beanstalkd_forwarded"), text);
  }
}
