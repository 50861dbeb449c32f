package io.github.vertxbeanstalkd.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A case's JSON line: the keys, order and units that src/test/scripts/*.sh read. */
class CaseResultTest {
  @Test
  void jsonLineHasTheScriptsKeysInOrderWithExtrasSortedAndTheNoteLast() {
    CaseResult result = new CaseResult("drain 500 c=2", "127.0.0.1:11300", 500, 0.25,
        107_519, 260_095, 1_359_871, 4_566_464, 1, List.of("unexpected reply NOT_FOUND"),
        Map.of("rssBytesPerJob", 301.25, "preloadJobsPerSec", 240_004.6456),
        "latency is reserve sent to RESERVED received");

    assertEquals("{\"case\":\"drain 500 c=2\",\"server\":\"127.0.0.1:11300\",\"ops\":500,\"seconds\":0.250,"
        + "\"opsPerSec\":2000.000,\"p50Us\":107.519,\"p99Us\":260.095,\"p999Us\":1359.871,\"maxUs\":4566.464,"
        + "\"errors\":1,\"errorSamples\":[\"unexpected reply NOT_FOUND\"],\"preloadJobsPerSec\":240004.646,"
        + "\"rssBytesPerJob\":301.250,\"note\":\"latency is reserve sent to RESERVED received\"}",
        result.jsonLine());
  }

  @Test
  void skippedCaseHasZerosAnEmptySampleListAndItsNote() {
    CaseResult result = CaseResult.skipped("fill 1000 x 100 B", new ServerAddress("127.0.0.1", 11300), "needs --pid");

    assertEquals("{\"case\":\"fill 1000 x 100 B\",\"server\":\"127.0.0.1:11300\",\"ops\":0,\"seconds\":0.000,"
        + "\"opsPerSec\":0.000,\"p50Us\":0.000,\"p99Us\":0.000,\"p999Us\":0.000,\"maxUs\":0.000,"
        + "\"errors\":0,\"errorSamples\":[],\"note\":\"needs --pid\"}", result.jsonLine());
  }
}
