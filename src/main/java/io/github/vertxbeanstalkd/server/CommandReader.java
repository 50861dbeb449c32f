package io.github.vertxbeanstalkd.server;

import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.CommandParser;
import io.github.vertxbeanstalkd.protocol.JobBytes;
import io.github.vertxbeanstalkd.protocol.ParsedLine;
import io.github.vertxbeanstalkd.protocol.PutHeader;
import io.vertx.core.buffer.Buffer;

/**
 * Cuts a connection's input into commands: CR LF lines, and after a put line its body of exactly
 * {@code bytes} plus two trailer bytes. A body is not copied here: it goes to the engine as ranges
 * of the arrays the socket's reads arrived in ({@link JobBytes}), and the job store copies it once.
 * Only a piece of a body smaller than {@link #SHARED_PIECE_MIN_BYTES} that straddles reads is
 * gathered into an array of the reader's own, so that a client trickling a body byte by byte costs
 * no more than the body. An oversized body is counted off and dropped, never kept.
 *
 * <p>The framing is written out here rather than left to Vert.x's RecordParser: the parser copies
 * every input buffer into its own and every record out again, so a body would be copied twice
 * before any copy that stores it. A line is gathered in a fixed array of {@link
 * CommandParser#MAX_LINE_BYTES}; a longer one is counted, not kept, and answered BAD_FORMAT at its
 * CR LF (BEHAVIOURS.md 1).
 */
final class CommandReader {
  /** A body piece at least this long is shared with the input it came in; a shorter one is copied. */
  static final int SHARED_PIECE_MIN_BYTES = 1024;
  /** The most one array gathering short body pieces takes. */
  private static final int GATHER_BYTES = 16 * 1024;

  /** Receives what the reader finds, in input order. */
  interface Listener {
    void onCommand(Command command);

    /** A quit line: nothing after it is read. */
    void onQuit();
  }

  private enum Mode { LINE, BODY, SKIP_BODY }

  private final CommandParser commandParser;
  private final Listener listener;
  private final InputChunks input = new InputChunks();
  private Mode mode = Mode.LINE;
  private boolean isPaused;

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
  private JobBytes body;
  private JobBytes.Builder pieces;
  /** Short body pieces, gathered: {@code [gatheredFrom, gatheredTo)} is not in {@link #pieces} yet. */
  private byte[] gathered;
  private int gatheredFrom;
  private int gatheredTo;
  private final byte[] trailer = new byte[2];
  private int trailerFilled;
  /** SKIP_BODY: body and trailer bytes still to drop. */
  private long skipMissing;

  CommandReader(long maxJobSizeBytes, Listener listener) {
    this.commandParser = new CommandParser(maxJobSizeBytes);
    this.listener = listener;
  }

  /** Input not yet turned into commands: read ahead while paused, or a partial line. */
  long heldBytes() {
    return input.bytes() + (lineLength < CommandParser.MAX_LINE_BYTES ? lineLength : 0);
  }

  boolean isPaused() {
    return isPaused;
  }

  /** Stops emitting commands; input fed meanwhile is held. */
  void pause() {
    isPaused = true;
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

  /** Reads {@code data}, holding on to its bytes: nobody may write them afterwards. */
  void feed(Buffer data) {
    if (data.length() == 0) {
      return;
    }
    input.add(data);
    readHeld();
  }

  private void readHeld() {
    while (!isPaused && !input.isEmpty()) {
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
        body = bodyLength == 0 ? JobBytes.EMPTY : null;
        trailerFilled = 0;
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
    if (n == bodyLength) {
      // The whole body came in one read: the usual case, and no copy at all.
      body = JobBytes.of(a, from, n);
      return;
    }
    if (pieces == null) {
      pieces = JobBytes.builder(bodyLength);
    }
    if (n >= SHARED_PIECE_MIN_BYTES) {
      flushGathered();
      pieces.add(a, from, n);
      return;
    }
    if (gathered == null || gathered.length - gatheredTo < n) {
      flushGathered();
      // The body's own bytes still to come bound the array; n of them are here.
      gathered = new byte[Math.max(n, Math.min(bodyMissing, GATHER_BYTES))];
      gatheredFrom = 0;
      gatheredTo = 0;
    }
    // Nobody reads this array before the put is emitted, so gathering goes on after a flush.
    System.arraycopy(a, from, gathered, gatheredTo, n);
    gatheredTo += n;
  }

  private void flushGathered() {
    if (gatheredTo > gatheredFrom) {
      pieces.add(gathered, gatheredFrom, gatheredTo - gatheredFrom);
      gatheredFrom = gatheredTo;
    }
  }

  private void onBody() {
    if (pieces != null) {
      flushGathered();
      body = pieces.build();
      pieces = null;
    }
    gathered = null;
    boolean hasCrlf = trailer[0] == '\r' && trailer[1] == '\n';
    Command.Put command = put.withBody(body, hasCrlf);
    body = null;
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
