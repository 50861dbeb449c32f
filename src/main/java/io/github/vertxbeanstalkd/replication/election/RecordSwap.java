package io.github.vertxbeanstalkd.replication.election;

import com.hazelcast.core.IFunction;

/**
 * A compare-and-set of a CP {@code IAtomicLong} that the CP group's leader applies only until a
 * deadline on its wall clock: Hazelcast retries an invocation for up to a minute, and a write that
 * its sender gave up on after a second (a primary cut off in a flapping network) must not land
 * later, when the sender no longer acts on it. Hosts' clocks are assumed to agree within a few
 * hundred milliseconds (NTP); a write that still lands late is given back by its sender.
 */
final class RecordSwap implements IFunction<Long, Long> {
  private static final long serialVersionUID = 1L;
  private final long expected;
  private final long wanted;
  private final long deadlineMillis;

  RecordSwap(long expected, long wanted, long deadlineMillis) {
    this.expected = expected;
    this.wanted = wanted;
    this.deadlineMillis = deadlineMillis;
  }

  @Override
  public Long apply(Long now) {
    return now == expected && System.currentTimeMillis() <= deadlineMillis ? wanted : now;
  }
}
