package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every command once, through TCP, the event bus and back, with the exact reply bytes. */
class CommandsOverTheWireTest extends DeployedServerTest {

  @Test
  void putUseAndListTubeUsed() {
    TestClient c = connect();
    c.send("use tube1").expect("USING tube1");
    c.send("put 5 0 60 5", "hello").expect("INSERTED 1");
    c.send("list-tube-used").expect("USING tube1");
  }

  @Test
  void peekCommandsSeeEachState() {
    TestClient c = connect();
    c.send("put 5 0 60 5", "ready", "put 0 100 60 7", "delayed", "put 9 0 60 6", "buried");
    c.expect("INSERTED 1", "INSERTED 2", "INSERTED 3");
    c.send("reserve-job 3", "bury 3 9").expect("RESERVED 3 6", "buried", "BURIED");
    c.send("peek 1").expect("FOUND 1 5", "ready");
    c.send("peek-ready").expect("FOUND 1 5", "ready");
    c.send("peek-delayed").expect("FOUND 2 7", "delayed");
    c.send("peek-buried").expect("FOUND 3 6", "buried");
    c.send("peek 99").expect("NOT_FOUND");
  }

  @Test
  void reserveTouchReleaseBuryKickAndDelete() {
    TestClient c = connect();
    c.send("put 5 0 60 5", "hello").expect("INSERTED 1");
    c.send("reserve").expect("RESERVED 1 5", "hello");
    c.send("touch 1").expect("TOUCHED");
    c.send("release 1 7 0").expect("RELEASED");
    c.send("reserve-with-timeout 0").expect("RESERVED 1 5", "hello");
    c.send("bury 1 9").expect("BURIED");
    c.send("kick 10").expect("KICKED 1");
    c.send("reserve-job 1").expect("RESERVED 1 5", "hello");
    c.send("bury 1 9").expect("BURIED");
    c.send("kick-job 1").expect("KICKED");
    c.send("delete 1").expect("DELETED");
    c.send("delete 1").expect("NOT_FOUND");
    c.send("reserve-with-timeout 0").expect("TIMED_OUT");
  }

  @Test
  void watchIgnoreAndTheTubeLists() {
    TestClient c = connect();
    c.send("watch tube1").expect("WATCHING 2");
    c.send("ignore default").expect("WATCHING 1");
    c.send("ignore tube1").expect("NOT_IGNORED");
    c.send("list-tubes-watched").expectDocument("---\n- tube1\n");
    c.send("list-tubes").expectDocument("---\n- default\n- tube1\n");
  }

  @Test
  void statsJobDocument() {
    TestClient c = connect();
    c.send("put 5 0 60 5", "hello").expect("INSERTED 1");
    Map<String, String> job = c.stats("stats-job 1");
    job.remove("age");
    assertEquals("{id=1, tube=default, state=ready, pri=5, delay=0, ttr=60, time-left=0, file=0, reserves=0, "
        + "timeouts=0, releases=0, buries=0, kicks=0}", job.toString());
    c.send("stats-job 2").expect("NOT_FOUND");
  }

  @Test
  void statsTubeDocument() {
    TestClient c = connect();
    c.send("put 5 0 60 5", "hello").expect("INSERTED 1");
    assertEquals("---\nname: default\ncurrent-jobs-urgent: 1\ncurrent-jobs-ready: 1\ncurrent-jobs-reserved: 0\n"
        + "current-jobs-delayed: 0\ncurrent-jobs-buried: 0\ntotal-jobs: 1\ncurrent-using: 1\ncurrent-watching: 1\n"
        + "current-waiting: 0\ncmd-delete: 0\ncmd-pause-tube: 0\npause: 0\npause-time-left: 0\n",
        c.send("stats-tube default").readDocument());
    c.send("stats-tube nosuch").expect("NOT_FOUND");
  }

  @Test
  void statsDocument() {
    TestClient c = connect();
    c.send("put 5 0 60 5", "hello").expect("INSERTED 1");
    Map<String, String> s = c.stats("stats");
    assertEquals("1", s.get("cmd-put"));
    assertEquals("1", s.get("cmd-stats"));
    assertEquals("1", s.get("current-connections"));
    assertEquals("65535", s.get("max-job-size"));
    assertEquals("false", s.get("draining"));
    assertEquals("\"1.12\"", s.get("version"));
    // 1.12's 51 keys, then the job store's bytes, maxMemory's count and cap, the refused connections.
    assertEquals(55, s.size());
    assertTrue(Long.parseLong(s.get("current-job-store-bytes")) > 0);
    assertEquals("0", s.get("rejected-connections"));
  }

  @Test
  void pauseTube() {
    TestClient c = connect();
    c.send("pause-tube default 0").expect("PAUSED");
    c.send("pause-tube nosuch 10").expect("NOT_FOUND");
  }

  @Test
  void quitClosesTheConnectionWithoutAReply() {
    TestClient c = connect();
    c.send("quit");
    c.expectClosed();
  }

  @Test
  void malformedAndUnknownLinesAreAnsweredAndTheConnectionCarriesOn() {
    TestClient c = connect();
    c.send("frobnicate").expect("UNKNOWN_COMMAND");
    c.send("delete x").expect("BAD_FORMAT");
    c.send("list-tube-used").expect("USING default");
  }
}
