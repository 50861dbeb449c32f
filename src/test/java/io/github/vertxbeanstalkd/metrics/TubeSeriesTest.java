package io.github.vertxbeanstalkd.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.protocol.Counter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-tube series come from the latest snapshot at each scrape: the engine's thread only hands
 * the snapshot over, and no meter is registered or removed as tubes come and go.
 */
class TubeSeriesTest {
  private final ServerMetrics metrics = ServerMetrics.create(false);

  @Test
  void aScrapeShowsTheTubesOfTheLatestSnapshot() {
    metrics.published(snapshot(3, "a", "b"));
    String first = metrics.scrape();
    metrics.published(snapshot(5, "b", "c"));
    String second = metrics.scrape();

    assertTrue(first.contains("beanstalkd_jobs{state=\"ready\",tube=\"a\"} 3.0\n"), first);
    assertTrue(first.contains("beanstalkd_jobs{state=\"buried\",tube=\"b\"} 4.0\n"), first);
    assertTrue(first.contains("beanstalkd_oldest_ready_age_seconds{tube=\"a\"} 1.5\n"), first);
    assertFalse(second.contains("tube=\"a\""), second);
    assertTrue(second.contains("beanstalkd_jobs{state=\"ready\",tube=\"b\"} 5.0\n"), second);
    assertTrue(second.contains("beanstalkd_jobs{state=\"reserved\",tube=\"c\"} 2.0\n"), second);
  }

  @Test
  void tubesThatComeAndGoRegisterNoMeters() {
    metrics.published(snapshot(0));
    int meters = metrics.registry().getMeters().size();

    for (int round = 0; round < 3; round++) {
      String[] names = new String[1_000];
      for (int i = 0; i < names.length; i++) {
        names[i] = "tube-" + round + "-" + i;
      }
      metrics.published(snapshot(1, names));
    }

    assertEquals(meters, metrics.registry().getMeters().size());
    assertTrue(metrics.scrape().contains("beanstalkd_jobs{state=\"ready\",tube=\"tube-2-999\"} 1.0\n"));
  }

  @Test
  void withoutTubesTheFamiliesAreLeftOut() {
    metrics.published(snapshot(0));

    String text = metrics.scrape();

    assertFalse(text.contains("beanstalkd_jobs"), text);
    assertFalse(text.contains("beanstalkd_oldest_ready_age_seconds"), text);
  }

  /** Tubes with {@code ready} ready jobs, 2 reserved, {@code ready + 1} buried, the oldest ready for 1.5 s. */
  private static EngineSnapshot snapshot(long ready, String... tubes) {
    Map<String, EngineSnapshot.TubeCounts> byName = new LinkedHashMap<>();
    for (String name : tubes) {
      byName.put(name, new EngineSnapshot.TubeCounts(name, 0, ready, 2, 0, ready + 1, ready, 0, 1, 0, false, 0, 1.5, 0, 0));
    }
    return new EngineSnapshot(0, byName, new long[Counter.values().length], 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0, 0, java.util.Map.of());
  }
}
