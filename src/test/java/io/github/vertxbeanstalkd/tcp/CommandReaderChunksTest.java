package io.github.vertxbeanstalkd.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.protocol.Command;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reader's input chunks: taken from the pool, lent to put bodies, and given back once answered. */
class CommandReaderChunksTest {
  private final List<String> seen = new ArrayList<>();

  private CommandReader pooledReader(ChunkPool pool, List<Command.Put> puts) {
    return new CommandReader(1 << 20, new CommandReader.Listener() {
      @Override
      public void onCommand(Command command) {
        seen.add(CommandReaderTest.describe(command));
        if (command instanceof Command.Put put) {
          puts.add(put);
        }
      }

      @Override
      public void onQuit() {
        seen.add("QUIT");
      }
    }, pool);
  }

  private static io.netty.buffer.ByteBuf ascii(String text) {
    return Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  @Test
  void lineOnlyInputGoesBackToThePoolAsSoonAsItIsRead() {
    // A connection that waits (a blocked reserve, an idle client) holds no chunk.
    ChunkPool pool = new ChunkPool();
    CommandReader reader = pooledReader(pool, new ArrayList<>());
    reader.feed(ascii("watch t\r\nreserve\r\n"));
    reader.batchDispatched();
    assertEquals(0, reader.chunks());
    assertEquals(1, pool.spareCount());
  }

  @Test
  void aPutsBodyStaysUntilItsBatchIsAnsweredAndTheChunkIsThenReused() {
    ChunkPool pool = new ChunkPool();
    List<Command.Put> puts = new ArrayList<>();
    CommandReader reader = pooledReader(pool, puts);
    reader.feed(ascii("put 0 0 60 5\r\nhello\r\n"));
    reader.batchDispatched();
    reader.pause();
    // Input that arrives while the batch is out is read into the same chunk, after the body.
    reader.feed(ascii("put 0 0 60 5\r\nworld\r\n"));
    assertEquals(1, reader.chunks());
    assertEquals("hello", new String(puts.get(0).body().toArray(), StandardCharsets.ISO_8859_1));
    reader.batchAnswered();
    reader.resume();
    assertEquals(List.of("PUT 0 hello", "PUT 0 world"), seen);
    assertEquals(1, reader.chunks(), "the second put's body is still lent");
    reader.batchDispatched();
    reader.batchAnswered();
    assertEquals(0, reader.chunks());
    assertEquals(1, pool.spareCount());
    // The next put is read into the chunk the first ones lay in.
    reader.feed(ascii("put 0 0 60 3\r\nabc\r\n"));
    assertEquals(0, pool.spareCount());
    assertEquals("abc", new String(puts.get(2).body().toArray(), StandardCharsets.ISO_8859_1));
  }

  @Test
  void aBodyStillArrivingIsNotGivenBackWhenTheBatchBeforeItIsAnswered() {
    // The put's line and half its body came with a batch's commands; that batch is answered while
    // the body is still arriving: the half already read must stay.
    ChunkPool pool = new ChunkPool();
    List<Command.Put> puts = new ArrayList<>();
    CommandReader reader = pooledReader(pool, puts);
    String body = "0123456789".repeat(2_000);
    reader.feed(ascii("stats\r\nput 0 0 60 " + body.length() + "\r\n" + body.substring(0, 12_000)));
    reader.batchDispatched();
    reader.batchAnswered();
    for (int i = 0; i < 20; i++) {
      // Other connections take chunks from the pool meanwhile, and write into them.
      byte[] other = pool.take();
      java.util.Arrays.fill(other, (byte) '#');
      pool.give(other);
    }
    reader.feed(ascii(body.substring(12_000) + "\r\n"));
    assertEquals(List.of("Stats[]", "PUT 0 " + body), seen);
    assertEquals(body, new String(puts.get(0).body().toArray(), StandardCharsets.ISO_8859_1));
  }

  @Test
  void aClosedReaderLetsGoOfItsInputAndLendsNoChunkToThePool() {
    // A client that pipelined without reading, then reset: all its socket buffered was read, and
    // a put of the batch still out lies in the first chunk.
    ChunkPool pool = new ChunkPool();
    List<Command.Put> puts = new ArrayList<>();
    CommandReader reader = pooledReader(pool, puts);
    reader.feed(ascii("put 0 0 60 5\r\nhello\r\n"));
    reader.batchDispatched();
    reader.pause();
    reader.feed(ascii("peek 2\r\n".repeat(10_000)));
    assertEquals(10, reader.chunks());
    reader.close();
    assertEquals(0, reader.chunks());
    assertEquals(0, reader.heldBytes());
    assertEquals(0, pool.spareCount(), "a chunk a put's body lies in must not be lent again");
    assertEquals("hello", new String(puts.get(0).body().toArray(), StandardCharsets.ISO_8859_1));
    // The batch out is answered after the close, and anything else that still comes is dropped.
    reader.batchAnswered();
    reader.resume();
    assertEquals(0, reader.chunks());
    assertEquals(List.of("PUT 0 hello"), seen);
  }
}
