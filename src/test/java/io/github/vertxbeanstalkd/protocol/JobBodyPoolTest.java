package io.github.vertxbeanstalkd.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A reply is reused only once given back, never twice at once, and the pool's memory stays bounded. */
class JobBodyPoolTest {

  private static Reply.JobBody filled(JobBodyPool pool, long id, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    Reply.JobBody job = pool.take("RESERVED", id, "t", bytes.length);
    System.arraycopy(bytes, 0, job.bodyArray(), 0, bytes.length);
    return job;
  }

  private static String encoded(Reply r) {
    return ReplyEncoder.encode(r).toString(StandardCharsets.ISO_8859_1);
  }

  @Test
  void aReplyNotGivenBackIsNeverHandedOutAgain() {
    JobBodyPool pool = new JobBodyPool();
    Reply.JobBody first = filled(pool, 1, "first");
    Reply.JobBody second = filled(pool, 2, "second");
    assertNotSame(first, second);
    assertEquals("RESERVED 1 5\r\nfirst\r\n", encoded(first));
    assertEquals("RESERVED 2 6\r\nsecond\r\n", encoded(second));
  }

  @Test
  void aReleasedReplyIsReusedWithItsArray() {
    JobBodyPool pool = new JobBodyPool();
    Reply.JobBody first = filled(pool, 1, "a longer body than the next");
    byte[] array = first.bodyArray();
    first.release();
    Reply.JobBody again = filled(pool, 2, "short");
    assertSame(first, again);
    assertSame(array, again.bodyArray());
    assertEquals("RESERVED 2 5\r\nshort\r\n", encoded(again));
    assertArrayEquals("short".getBytes(StandardCharsets.US_ASCII), again.body());
  }

  @Test
  void releasingTwiceIsABug() {
    JobBodyPool pool = new JobBodyPool();
    Reply.JobBody job = filled(pool, 1, "x");
    job.release();
    assertThrows(IllegalStateException.class, job::release);
  }

  @Test
  void aReplyMadeWithoutThePoolIgnoresRelease() {
    Reply.JobBody job = Reply.JobBody.found(7, "abc".getBytes(StandardCharsets.US_ASCII), "t");
    job.release();
    job.release();
    assertEquals("FOUND 7 3\r\nabc\r\n", encoded(job));
  }

  @Test
  void repliesGivenBackOnOtherThreadsAreReused() throws InterruptedException {
    JobBodyPool pool = new JobBodyPool();
    List<Reply.JobBody> taken = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      taken.add(filled(pool, i, "body " + i));
    }
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      List<Reply.JobBody> share = taken.subList(t * 100, (t + 1) * 100);
      Thread thread = new Thread(() -> share.forEach(Reply::release));
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    java.util.Set<Reply.JobBody> again = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (int i = 0; i < 400; i++) {
      again.add(filled(pool, 1000 + i, "next " + i));
    }
    assertEquals(400, again.size(), "no reply handed out twice");
    for (Reply.JobBody job : taken) {
      assertTrue(again.contains(job), "every reply given back was reused");
    }
  }

  @Test
  void whatThePoolKeepsIsBounded() {
    JobBodyPool pool = new JobBodyPool();
    List<Reply.JobBody> taken = new ArrayList<>();
    for (int i = 0; i < JobBodyPool.MAX_POOLED + 500; i++) {
      taken.add(pool.take("RESERVED", i, "t", 60_000));
    }
    taken.forEach(Reply::release);
    pool.take("RESERVED", 1, "t", 1);
    assertEquals(JobBodyPool.MAX_POOLED - 1, pool.freeCount(), "one more is taken from what was kept");
    assertTrue(pool.keptArrayBytes() <= JobBodyPool.MAX_POOLED_ARRAY_BYTES, pool.keptArrayBytes() + " bytes kept");
  }
}
