package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.CommandParser;
import io.github.vertxbeanstalkd.protocol.JobBytes;
import io.github.vertxbeanstalkd.protocol.ParsedLine;
import io.github.vertxbeanstalkd.protocol.PutHeader;
import io.netty.buffer.ByteBuf;

/**
 * Cuts a connection's input into commands: CR LF lines, and after a put line its body of exactly
 * {@code bytes} plus two trailer bytes. Input is copied once, into the connection's chunks
 * ({@link InputChunks}); a body is not copied again here: it goes to the engine as ranges of those
 * chunks ({@link JobBytes}, one range unless it crosses from one chunk into the next), and the job
 * store copies it. An oversized body is counted off and dropped, never kept.
 *
 * <p>The framing is written out here rather than left to Vert.x's RecordParser: the parser copies
 * every input buffer into its own and every record out again, so a body would be copied twice
 * before any copy that stores it. A line is gathered in a fixed array of {@link
 * CommandParser#MAX_LINE_BYTES}; a longer one is counted, not kept, and answered BAD_FORMAT at its
 * CR LF (BEHAVIOURS.md 1).
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
final class CommandReader {
  /** Receives what the reader finds, in input order. */
  interface Listener {
    void onCommand(Command command);

    /** A quit line: nothing after it is read. */
    void onQuit();
  }

  private enum Mode { LINE, BODY, SKIP_BODY }

  private final CommandParser commandParser;
  private final Listener listener;
  private final InputChunks input;
  private Mode mode = Mode.LINE;
  private boolean isPaused;
  /** Input arrived while the connection had stopped reading: kept unread until {@link #unhold()}. */
  private boolean isHolding;

  /** The line so far, CR included: at most 222 bytes and the CR (BEHAVIOURS.md 1). */
  private final byte[] line = new byte[CommandParser.MAX_LINE_BYTES - 1];
  /**
   * Bytes of the line so far, CR included; {@link CommandParser#MAX_LINE_BYTES} once the line is
   * too long, whose bytes are then dropped, not kept, until its CR LF.
   */
  private int lineLength;
  /** The line's last byte so far is a CR, so an LF now ends it (a bare LF does not). */
  private boolean isCrLast;

  private PutHeader put;
  /** The engine was told that the line of the put in progress arrived. */
  private boolean isPutAnnounced;
  private int bodyLength;
  private int bodyMissing;
  /** The body's bytes read so far that lie in one run of one chunk, not yet in {@link #pieces}. */
  private byte[] runArray;
  private int runFrom;
  private int runTo;
  /** The body's earlier runs, when it crosses from one chunk into the next; null otherwise. */
  private JobBytes.Builder pieces;
  private final byte[] trailer = new byte[2];
  private int trailerFilled;
  /** SKIP_BODY: body and trailer bytes still to drop. */
  private long skipMissing;

  /** A reader with chunks of its own (tests). */
  CommandReader(long maxJobSizeBytes, Listener listener) {
    this(maxJobSizeBytes, listener, new ChunkPool());
  }

  /** A reader whose input chunks come from {@code pool}. */
  CommandReader(long maxJobSizeBytes, Listener listener, ChunkPool pool) {
    this.commandParser = new CommandParser(maxJobSizeBytes);
    this.listener = listener;
    this.input = new InputChunks(pool);
  }

  /** Input not yet turned into commands: read ahead while paused, or a partial line. */
  long heldBytes() {
    return input.bytes() + (lineLength < CommandParser.MAX_LINE_BYTES ? lineLength : 0);
  }

  boolean isPaused() {
    return isPaused;
  }

  /** Whether a put's body is arriving: the chunks it lies in are held until its batch is answered. */
  boolean isReadingBody() {
    return mode == Mode.BODY;
  }

  /** What this reader holds on the heap: its chunks, whole (a partial line is copied into a fixed array). */
  long chunkBytes() {
    return (long) input.chunks() * ChunkPool.CHUNK_BYTES;
  }

  /** Stops emitting commands; input fed meanwhile is held. */
  void pause() {
    isPaused = true;
  }

  /**
   * Keeps what is fed from now on unread, without pausing: Netty reads what a socket buffered when
   * its client resets or half-closes, whether the connection stopped reading or not.
   */
  void hold() {
    isHolding = true;
  }

  /** Reads on what was held since {@link #hold()}, unless paused. */
  void unhold() {
    if (isHolding) {
      isHolding = false;
      readHeld();
    }
  }

  /** Emits the commands held while paused. */
  void resume() {
    if (isPaused) {
      isPaused = false;
      readHeld();
    }
  }

  /**
   * True, once, for a put whose line has been read but whose body has not fully arrived: the
   * engine must hear of it now (BEHAVIOURS.md 4). See {@link #isPendingPutTooBig()}.
   */
  boolean announcePendingPut() {
    if (put == null || isPutAnnounced) {
      return false;
    }
    isPutAnnounced = true;
    return true;
  }

  /** The put in progress is over max-job-size: its body is being skipped. */
  boolean isPendingPutTooBig() {
    return mode == Mode.SKIP_BODY;
  }

  /** Reads {@code data}'s readable bytes (copied: the caller keeps and releases {@code data}). */
  void feed(ByteBuf data) {
    if (!data.isReadable()) {
      return;
    }
    input.add(data);
    readHeld();
  }

  /** What was read so far went to the engine as one batch; see {@link InputChunks}. */
  void batchDispatched() {
    input.batchDispatched();
  }

  /** The batch sent last is answered: the input its puts' bodies lie in may be reused. */
  void batchAnswered() {
    input.batchAnswered();
  }

  /** The connection closed: nothing more is read, and the input held goes ({@link InputChunks#drop()}). */
  void close() {
    isPaused = true;
    input.drop();
    runArray = null;
    pieces = null;
  }

  /** Input chunks held now, for tests ({@link #chunkBytes()} is what the front counts). */
  int chunks() {
    return input.chunks();
  }

  private void readHeld() {
    while (!isPaused && !isHolding && !input.isEmpty()) {
      byte[] a = input.array();
      int from = input.from();
      int end = input.end();
      int used = switch (mode) {
        case LINE -> readLine(a, from, end);
        case BODY -> readBody(a, from, end);
        case SKIP_BODY -> skipBody(from, end);
      };
      input.consume(used);
    }
  }

  /** Returns the bytes used: up to and including the line's CR LF, or all of them. */
  private int readLine(byte[] a, int from, int end) {
    for (int i = from; i < end; i++) {
      byte b = a[i];
      if (b == '\n' && isCrLast) {
        onLine();
        return i + 1 - from;
      }
      if (lineLength < line.length) {
        line[lineLength++] = b;
      } else {
        lineLength = CommandParser.MAX_LINE_BYTES; // the 224th byte without a CR LF: dropped
      }
      isCrLast = b == '\r';
    }
    return end - from;
  }

  private void onLine() {
    int length = lineLength - 1; // without the CR
    lineLength = 0;
    isCrLast = false;
    if (length > CommandParser.MAX_LINE_BYTES - 2) {
      // BEHAVIOURS.md 1: 224 bytes without a CR LF are dropped, and so is everything up to the
      // next CR LF; then one BAD_FORMAT, and the connection carries on.
      listener.onCommand(Command.Invalid.BAD_FORMAT);
      return;
    }
    ParsedLine parsed = commandParser.parse(line, length);
    if (parsed instanceof PutHeader header) {
      put = header;
      isPutAnnounced = false;
      if (header.bytes() > commandParser.maxJobSizeBytes()) {
        // BEHAVIOURS.md 4: swallow exactly bytes + 2, whatever they are, without keeping them.
        mode = Mode.SKIP_BODY;
        skipMissing = header.bytes() + 2;
      } else {
        mode = Mode.BODY;
        bodyLength = (int) header.bytes();
        bodyMissing = bodyLength;
        trailerFilled = 0;
        if (bodyLength > 0) {
          input.pinBody();
        }
      }
    } else if (parsed instanceof Command.Quit) {
      // BEHAVIOURS.md 1: quit closes at once and ignores whatever was pipelined after it.
      pause();
      listener.onQuit();
    } else {
      listener.onCommand((Command) parsed);
    }
  }

  private int readBody(byte[] a, int from, int end) {
    int n = Math.min(end - from, bodyMissing);
    if (n > 0) {
      addPiece(a, from, n);
      bodyMissing -= n;
    }
    int i = from + n;
    if (bodyMissing > 0) {
      return i - from;
    }
    while (i < end && trailerFilled < 2) {
      trailer[trailerFilled++] = a[i++];
    }
    if (trailerFilled == 2) {
      onBody();
    }
    return i - from;
  }

  private void addPiece(byte[] a, int from, int n) {
    if (a == runArray && from == runTo) {
      // The usual case: the next bytes of the same chunk.
      runTo += n;
      return;
    }
    if (runArray != null) {
      if (pieces == null) {
        pieces = JobBytes.builder(bodyLength);
      }
      pieces.add(runArray, runFrom, runTo - runFrom);
    }
    runArray = a;
    runFrom = from;
    runTo = from + n;
  }

  private void onBody() {
    JobBytes body;
    if (bodyLength == 0) {
      body = JobBytes.EMPTY;
    } else if (pieces == null) {
      body = JobBytes.of(runArray, runFrom, bodyLength);
    } else {
      body = pieces.add(runArray, runFrom, runTo - runFrom).build();
    }
    runArray = null;
    pieces = null;
    input.holdBody();
    boolean hasCrlf = trailer[0] == '\r' && trailer[1] == '\n';
    Command.Put command = put.withBody(body, hasCrlf);
    put = null;
    mode = Mode.LINE;
    listener.onCommand(command);
  }

  private int skipBody(int from, int end) {
    int n = (int) Math.min(end - from, skipMissing);
    skipMissing -= n;
    if (skipMissing == 0) {
      put = null;
      mode = Mode.LINE;
      listener.onCommand(new Command.JobTooBig());
    }
    return n;
  }
}
