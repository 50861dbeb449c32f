package io.github.vertxbeanstalkd.metrics;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.JobState;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code beanstalkd_command_duration_seconds} histogram, one timer per command word: the time
 * from a command's arrival at a front (TCP, TLS or the event bus) to its reply, a blocking
 * reserve's wait included.
 */
public final class CommandDurations implements Command.Handler<Void, Timer> {
  /** Does not time anything. */
  public static final CommandDurations NONE = new CommandDurations(null);

  /** Bucket bounds from 50 us to 10 s: a put takes tens of microseconds, a reserve may wait seconds. */
  private static final Duration[] BUCKETS = {
      Duration.ofNanos(50_000), Duration.ofNanos(100_000), Duration.ofNanos(250_000), Duration.ofNanos(500_000),
      Duration.ofMillis(1), Duration.ofNanos(2_500_000), Duration.ofMillis(5), Duration.ofMillis(10),
      Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
      Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofNanos(2_500_000_000L), Duration.ofSeconds(5),
      Duration.ofSeconds(10)};

  private final Map<String, Timer> timers = new HashMap<>();

  CommandDurations(MeterRegistry registry) {
    if (registry == null) {
      return;
    }
    for (String word : CommandWords.ALL) {
      timers.put(word, Timer.builder("beanstalkd.command.duration")
          .description("Time from a command's arrival to its reply, a blocking reserve's wait included")
          .tag("command", word)
          .serviceLevelObjectives(BUCKETS)
          .register(registry));
    }
  }

  public boolean isEnabled() {
    return !timers.isEmpty();
  }

  /** Records that {@code command} was answered {@code nanos} after it arrived. */
  public void record(Command command, long nanos) {
    Timer timer = timers.isEmpty() ? null : command.dispatch(this, null);
    if (timer != null) {
      timer.record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  private Timer timer(String word) {
    return timers.get(word);
  }

  @Override public Timer putLine(Void c, Command.PutLine cmd) { return null; }
  @Override public Timer flush(Void c, Command.Flush cmd) { return null; }
  @Override public Timer put(Void c, Command.Put cmd) { return timer("put"); }
  @Override public Timer jobTooBig(Void c, Command.JobTooBig cmd) { return timer("put"); }
  @Override public Timer use(Void c, Command.Use cmd) { return timer("use"); }
  @Override public Timer reserve(Void c, Command.Reserve cmd) {
    return timer(cmd.timeoutSeconds() < 0 ? "reserve" : "reserve-with-timeout");
  }
  @Override public Timer reserveJob(Void c, Command.ReserveJob cmd) { return timer("reserve-job"); }
  @Override public Timer delete(Void c, Command.Delete cmd) { return timer("delete"); }
  @Override public Timer release(Void c, Command.Release cmd) { return timer("release"); }
  @Override public Timer bury(Void c, Command.Bury cmd) { return timer("bury"); }
  @Override public Timer touch(Void c, Command.Touch cmd) { return timer("touch"); }
  @Override public Timer watch(Void c, Command.Watch cmd) { return timer("watch"); }
  @Override public Timer ignore(Void c, Command.Ignore cmd) { return timer("ignore"); }
  @Override public Timer peek(Void c, Command.Peek cmd) { return timer("peek"); }
  @Override public Timer peekState(Void c, Command.PeekState cmd) {
    return timer(cmd.state() == JobState.READY ? "peek-ready"
        : cmd.state() == JobState.DELAYED ? "peek-delayed" : "peek-buried");
  }
  @Override public Timer kick(Void c, Command.Kick cmd) { return timer("kick"); }
  @Override public Timer kickJob(Void c, Command.KickJob cmd) { return timer("kick-job"); }
  @Override public Timer statsJob(Void c, Command.StatsJob cmd) { return timer("stats-job"); }
  @Override public Timer statsTube(Void c, Command.StatsTube cmd) { return timer("stats-tube"); }
  @Override public Timer stats(Void c, Command.Stats cmd) { return timer("stats"); }
  @Override public Timer listTubes(Void c, Command.ListTubes cmd) { return timer("list-tubes"); }
  @Override public Timer listTubeUsed(Void c, Command.ListTubeUsed cmd) { return timer("list-tube-used"); }
  @Override public Timer listTubesWatched(Void c, Command.ListTubesWatched cmd) {
    return timer("list-tubes-watched");
  }
  @Override public Timer pauseTube(Void c, Command.PauseTube cmd) { return timer("pause-tube"); }
  @Override public Timer quit(Void c, Command.Quit cmd) { return timer("quit"); }
  @Override public Timer invalid(Void c, Command.Invalid cmd) { return timer("invalid"); }
}
