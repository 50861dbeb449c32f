package io.github.vertxbeanstalkd.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {
  @Test
  void aThousandStatsInOneTickReadTheProcessOnce() {
    long[] first = ProcessCpu.micros();
    int same = 0;
    for (int i = 0; i < 1000; i++) {
      if (ProcessCpu.micros() == first) {
        same++;
      }
    }
    // Within 10 ms on any machine that runs the suite at all; a new tick may start once in between.
    assertTrue(same > 0, "every call read /proc again");
  }

  @Test
  void cpuTimeNeverGoesBackwards() throws InterruptedException {
    long[] before = ProcessCpu.micros();
    long spinUntil = System.nanoTime() + 30_000_000;
    while (System.nanoTime() < spinUntil) {
      Thread.onSpinWait();
    }
    long[] after = ProcessCpu.micros();
    assertTrue(after[0] + after[1] >= before[0] + before[1]);
  }
}
