package io.github.vertxbeanstalkd.server;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.CommandParser;
import io.github.vertxbeanstalkd.protocol.ParsedLine;
import io.github.vertxbeanstalkd.protocol.PutHeader;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.parsetools.RecordParser;
import java.nio.charset.StandardCharsets;

/**
 * Cuts a connection's input into commands. A {@link RecordParser} reads CR LF lines and, after a
 * put line, fixed-size body chunks of at most {@link #BODY_CHUNK_BYTES}, copied into an array of
 * exactly the body's size; an oversized body is counted off and dropped, never kept.
 */
final class CommandReader {
  static final int BODY_CHUNK_BYTES = 64 * 1024;
  private static final Buffer CRLF = Buffer.buffer("\r\n");

  /** Receives what the reader finds, in input order. */
  interface Listener {
    void onCommand(Command command);

    /** A quit line: nothing after it is read. */
    void onQuit();
  }

  private enum Mode { LINE, BODY, SKIP_BODY, DISCARD_LINE }

  private final CommandParser commandParser;
  private final Listener listener;
  private RecordParser parser;
  private Mode mode = Mode.LINE;
  /** Bytes given to the parser that it has not emitted as records yet. */
  private long heldBytes;
  private byte lastByteFed;
  private boolean isPaused;
  /** DISCARD_LINE: the previous byte was a CR, so an LF now ends the discarded line. */
  private boolean isCrPending;

  private PutHeader put;
  /** The engine was told that the line of the put in progress arrived. */
  private boolean isPutAnnounced;
  private byte[] body;
  private int bodyFilled;
  /** Body and trailer bytes still to come. */
  private long bodyRemaining;
  private final byte[] trailer = new byte[2];
  private int trailerFilled;

  CommandReader(long maxJobSizeBytes, Listener listener) {
    this.commandParser = new CommandParser(maxJobSizeBytes);
    this.listener = listener;
    this.parser = newParser();
  }

  /** Input not yet turned into commands (read ahead while paused, or a partial line or chunk). */
  long heldBytes() {
    return heldBytes;
  }

  boolean isPaused() {
    return isPaused;
  }

  /** Stops emitting commands; input fed meanwhile is held. */
  void pause() {
    if (!isPaused) {
      isPaused = true;
      parser.pause();
    }
  }

  /** Emits the commands held while paused. */
  void resume() {
    if (isPaused) {
      isPaused = false;
      parser.resume();
      checkLineLimit();
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

  void feed(Buffer data) {
    if (data.length() == 0) {
      return;
    }
    if (mode == Mode.DISCARD_LINE) {
      int rest = skipPastLineEnd(data);
      if (rest < 0) {
        return;
      }
      mode = Mode.LINE;
      listener.onCommand(Command.Invalid.BAD_FORMAT);
      if (rest == data.length()) {
        return;
      }
      data = data.getBuffer(rest, data.length());
    }
    heldBytes += data.length();
    lastByteFed = data.getByte(data.length() - 1);
    parser.handle(data);
    checkLineLimit();
  }

  private RecordParser newParser() {
    RecordParser p = RecordParser.newDelimited(CRLF);
    p.handler(this::onRecord);
    return p;
  }

  /** Returns the index just after the first CR LF (which may straddle buffers), or -1. */
  private int skipPastLineEnd(Buffer data) {
    for (int i = 0; i < data.length(); i++) {
      byte b = data.getByte(i);
      if (isCrPending && b == '\n') {
        isCrPending = false;
        return i + 1;
      }
      isCrPending = b == '\r';
    }
    return -1;
  }

  private void checkLineLimit() {
    // Only a running parser has emitted every complete line, so only then is what it holds the
    // start of one line.
    if (!isPaused && mode == Mode.LINE && heldBytes >= CommandParser.MAX_LINE_BYTES) {
      // BEHAVIOURS.md 1: 224 bytes without a CR LF are dropped, and so is everything up to the
      // next CR LF; then one BAD_FORMAT, and the connection carries on.
      parser = newParser();
      heldBytes = 0;
      mode = Mode.DISCARD_LINE;
      isCrPending = lastByteFed == '\r';
    }
  }

  private void onRecord(Buffer record) {
    switch (mode) {
      case LINE -> {
        heldBytes -= record.length() + 2;
        onLine(record);
      }
      case BODY -> {
        heldBytes -= record.length();
        onBodyChunk(record);
      }
      default -> {
        heldBytes -= record.length();
        onSkippedChunk(record);
      }
    }
  }

  private void onLine(Buffer line) {
    ParsedLine parsed = commandParser.parse(line.toString(StandardCharsets.ISO_8859_1));
    if (parsed instanceof PutHeader header) {
      put = header;
      isPutAnnounced = false;
      bodyRemaining = header.bytes() + 2;
      if (header.bytes() > commandParser.maxJobSizeBytes()) {
        // BEHAVIOURS.md 4: swallow exactly bytes + 2, whatever they are, without keeping them.
        mode = Mode.SKIP_BODY;
      } else {
        mode = Mode.BODY;
        body = new byte[(int) header.bytes()];
        bodyFilled = 0;
        trailerFilled = 0;
      }
      parser.fixedSizeMode(nextChunkSize());
    } else if (parsed instanceof Command.Quit) {
      // BEHAVIOURS.md 1: quit closes at once and ignores whatever was pipelined after it.
      pause();
      listener.onQuit();
    } else {
      listener.onCommand((Command) parsed);
    }
  }

  private void onBodyChunk(Buffer chunk) {
    int n = chunk.length();
    int toBody = Math.min(n, body.length - bodyFilled);
    chunk.getBytes(0, toBody, body, bodyFilled);
    bodyFilled += toBody;
    for (int i = toBody; i < n; i++) {
      trailer[trailerFilled++] = chunk.getByte(i);
    }
    bodyRemaining -= n;
    if (bodyRemaining > 0) {
      parser.fixedSizeMode(nextChunkSize());
      return;
    }
    boolean hasCrlf = trailer[0] == '\r' && trailer[1] == '\n';
    Command.Put command = put.withBody(body, hasCrlf);
    body = null;
    put = null;
    backToLines();
    listener.onCommand(command);
  }

  private void onSkippedChunk(Buffer chunk) {
    bodyRemaining -= chunk.length();
    if (bodyRemaining > 0) {
      parser.fixedSizeMode(nextChunkSize());
      return;
    }
    put = null;
    backToLines();
    listener.onCommand(new Command.JobTooBig());
  }

  private int nextChunkSize() {
    return (int) Math.min(bodyRemaining, BODY_CHUNK_BYTES);
  }

  private void backToLines() {
    mode = Mode.LINE;
    parser.delimitedMode(CRLF);
  }
}
