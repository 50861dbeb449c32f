package io.github.vertxbeanstalkd.durability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Protocol steps the restart tests repeat, over a {@link TestClient}, each checking its reply. */
final class Wire {
  private Wire() {}

  static long put(TestClient c, String tube, long pri, long delaySeconds, long ttrSeconds, byte[] body) {
    c.send("use " + tube).expect("USING " + tube);
    String reply = c.sendPut(pri, delaySeconds, ttrSeconds, body).readLine();
    assertTrue(reply.startsWith("INSERTED "), reply);
    return Long.parseLong(reply.substring("INSERTED ".length()));
  }

  static long put(TestClient c, String tube, long pri, long delaySeconds, String body) {
    return put(c, tube, pri, delaySeconds, 60, body.getBytes(StandardCharsets.ISO_8859_1));
  }

  /** reserve-job, checking the body handed out. */
  static void reserveJob(TestClient c, long id) {
    c.send("reserve-job " + id);
    String header = c.readLine();
    assertTrue(header.startsWith("RESERVED " + id + " "), header);
    c.readBody(header);
  }

  static Map<String, String> statsJob(TestClient c, long id) {
    return c.stats("stats-job " + id);
  }

  /** The body of a job, through peek. */
  static byte[] peek(TestClient c, long id) {
    c.send("peek " + id);
    String header = c.readLine();
    assertTrue(header.startsWith("FOUND " + id + " "), "peek " + id + ": " + header);
    return c.readBody(header);
  }

  static void expectGone(TestClient c, long id) {
    c.send("peek " + id).expect("NOT_FOUND");
    c.send("stats-job " + id).expect("NOT_FOUND");
  }

  static long number(Map<String, String> stats, String key) {
    String v = stats.get(key);
    assertTrue(v != null, "no key " + key + " in " + stats);
    return Long.parseLong(v);
  }
}
