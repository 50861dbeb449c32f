package io.github.vertxbeanstalkd.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The replay's normalisation masks exactly the documented stats values, nothing else. */
class ReplyUnitsTest {

  private static byte[] ok(String yaml) {
    return ("OK " + yaml.length() + "\r\n" + yaml + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
  }

  private static boolean sameAfterNormalising(byte[] expected, byte[] actual) {
    return Arrays.equals(ReplyUnits.normaliseExpected(expected), ReplyUnits.normaliseActual(expected, actual));
  }

  private static String stats(String pid, String version, String id, String jobs) {
    return "---\ncurrent-jobs-ready: " + jobs + "\ncurrent-connections: 1\npid: " + pid + "\nversion: " + version
        + "\nrusage-utime: 0.001000\nuptime: 0\nid: " + id + "\nhostname: h\nos: #1 SMP\nplatform: x86_64\n";
  }

  @Test
  void statsMasksProcessValuesAndRecomputesTheLength() {
    byte[] beanstalkd = ok(stats("12345", "\"1.12\"", "0123456789abcdef", "0"));
    byte[] ours = ok(stats("7", "\"1.12\"", "fedcba9876543210", "0"));
    assertEquals(true, sameAfterNormalising(beanstalkd, ours));
  }

  @Test
  void statsStillComparesCountersAndTheFormOfMaskedValues() {
    byte[] beanstalkd = ok(stats("12345", "\"1.12\"", "0123456789abcdef", "0"));
    assertFalse(sameAfterNormalising(beanstalkd, ok(stats("7", "\"1.12\"", "0123456789abcdef", "1"))));
    assertFalse(sameAfterNormalising(beanstalkd, ok(stats("7", "1.12", "0123456789abcdef", "0"))));
    assertFalse(sameAfterNormalising(beanstalkd, ok(stats("7", "\"1.12\"", "not-hex", "0"))));
  }

  @Test
  void statsJobComparesIdExactlyAndTimesWithinOneSecond() {
    String job = "---\nid: %s\ntube: default\nstate: reserved\nage: %s\ntime-left: %s\n";
    byte[] beanstalkd = ok(String.format(job, "1", "5", "59"));
    assertEquals(true, sameAfterNormalising(beanstalkd, ok(String.format(job, "1", "6", "58"))));
    assertFalse(sameAfterNormalising(beanstalkd, ok(String.format(job, "2", "5", "59"))));
    assertFalse(sameAfterNormalising(beanstalkd, ok(String.format(job, "1", "7", "59"))));
  }

  @Test
  void splitFramesLinesAndAnnouncedBodies() {
    byte[] stream = "INSERTED 1\r\nRESERVED 1 4\r\na\r\nb\r\nOK 4\r\n---\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
    List<byte[]> units = ReplyUnits.split(stream);
    assertEquals(3, units.size());
    assertArrayEquals("RESERVED 1 4\r\na\r\nb\r\n".getBytes(StandardCharsets.ISO_8859_1), units.get(1));
  }

  @Test
  void payloadEscapesRoundTrip() {
    byte[] bytes = PayloadText.unescape("a\\r\\n\\x00\\[3*xy]\\[fe..ff]\\s\\\\");
    assertArrayEquals(new byte[] {'a', '\r', '\n', 0, 'x', 'y', 'x', 'y', 'x', 'y', (byte) 0xfe, (byte) 0xff, ' ', '\\'},
        bytes);
    assertArrayEquals(bytes, PayloadText.unescape(PayloadText.escape(bytes)));
  }
}
