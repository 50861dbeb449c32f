package io.github.vertxbeanstalkd.server;

import io.github.vertxbeanstalkd.bus.ConnectionRef;
import io.github.vertxbeanstalkd.bus.EngineAddress;
import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.bus.EngineRequest;
import io.github.vertxbeanstalkd.protocol.Command;
import io.github.vertxbeanstalkd.protocol.CommandParser;
import io.github.vertxbeanstalkd.protocol.ParsedLine;
import io.github.vertxbeanstalkd.protocol.PutHeader;
import io.github.vertxbeanstalkd.protocol.Reply;
import io.github.vertxbeanstalkd.protocol.ReplyEncoder;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.net.NetSocket;
import io.vertx.core.parsetools.RecordParser;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One client socket. A {@link RecordParser} cuts the input into command lines and, after a put
 * line, fixed-size body chunks; every command parsed from what has arrived travels to the engine
 * as one batch, and the next batch is read only once this one is answered and written.
 *
 * <p>Memory stays bounded: input is read ahead by at most {@link #INPUT_LIMIT_BYTES}, bodies are
 * copied into exactly-sized arrays in chunks of {@link #BODY_CHUNK_BYTES}, oversized bodies are
 * counted and dropped, and replies wait (as references) while the socket's write queue is full.
 */
final class Connection {
  static final int BODY_CHUNK_BYTES = 64 * 1024;
  static final int INPUT_LIMIT_BYTES = 64 * 1024;
  static final int MAX_BATCH_COMMANDS = 1024;
  private static final int WRITE_CHUNK_BYTES = 64 * 1024;
  private static final Buffer CRLF = Buffer.buffer("\r\n");

  private enum Mode { LINE, BODY, SKIP_BODY, DISCARD_LINE }

  private final NetSocket socket;
  private final ConnectionRef ref;
  private final EventBus bus;
  private final CommandParser commandParser;
  private final Runnable onClosed;

  private RecordParser parser;
  private Mode mode = Mode.LINE;
  /** Bytes given to the parser that it has not yet emitted as records. */
  private long parserHeldBytes;
  private byte lastByteFed;
  private boolean isParserPaused;
  private boolean isSocketPaused;
  /** DISCARD_LINE: the previous byte was a CR, so an LF now ends the discarded line. */
  private boolean isCrPending;

  private PutHeader put;
  private byte[] body;
  private int bodyFilled;
  /** Body plus trailer bytes still to come. */
  private long bodyRemaining;
  private final byte[] trailer = new byte[2];
  private int trailerFilled;

  private List<Command> batch = new ArrayList<>();
  private boolean isInFlight;
  private boolean isBatchAnswered;
  private boolean isQuitting;
  private boolean isClosed;
  private final ArrayDeque<Reply> unwritten = new ArrayDeque<>();

  Connection(NetSocket socket, ConnectionRef ref, EventBus bus, long maxJobSizeBytes, Runnable onClosed) {
    this.socket = socket;
    this.ref = ref;
    this.bus = bus;
    this.commandParser = new CommandParser(maxJobSizeBytes);
    this.onClosed = onClosed;
    this.parser = newParser();
  }

  void start() {
    bus.send(EngineAddress.REQUESTS, new EngineRequest.Open(ref));
    socket.handler(this::onData);
    socket.exceptionHandler(e -> socket.close());
    socket.closeHandler(v -> closed());
  }

  private RecordParser newParser() {
    RecordParser p = RecordParser.newDelimited(CRLF);
    p.handler(this::onRecord);
    return p;
  }

  // ---------------------------------------------------------------- input

  private void onData(Buffer data) {
    if (isQuitting || isClosed || data.length() == 0) {
      return;
    }
    if (mode == Mode.DISCARD_LINE) {
      int rest = skipPastLineEnd(data);
      if (rest < 0) {
        return;
      }
      mode = Mode.LINE;
      add(Command.Invalid.BAD_FORMAT);
      if (rest == data.length()) {
        afterParse();
        return;
      }
      data = data.getBuffer(rest, data.length());
    }
    parserHeldBytes += data.length();
    lastByteFed = data.getByte(data.length() - 1);
    parser.handle(data);
    afterParse();
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

  private void afterParse() {
    if (!isParserPaused && mode == Mode.LINE && parserHeldBytes >= CommandParser.MAX_LINE_BYTES) {
      // BEHAVIOURS.md 1: 224 bytes without a CR LF are dropped, and so is everything up to the
      // next CR LF; then one BAD_FORMAT, and the connection carries on.
      parser = newParser();
      parserHeldBytes = 0;
      mode = Mode.DISCARD_LINE;
      isCrPending = lastByteFed == '\r';
    }
    dispatch();
    if (parserHeldBytes > INPUT_LIMIT_BYTES && !isSocketPaused) {
      isSocketPaused = true;
      socket.pause();
    }
  }

  private void onRecord(Buffer record) {
    switch (mode) {
      case LINE -> {
        parserHeldBytes -= record.length() + 2;
        onLine(record);
      }
      case BODY -> {
        parserHeldBytes -= record.length();
        onBodyChunk(record);
      }
      default -> {
        parserHeldBytes -= record.length();
        onSkippedChunk(record);
      }
    }
  }

  private void onLine(Buffer line) {
    ParsedLine parsed = commandParser.parse(line.getBytes(), line.length());
    if (parsed instanceof PutHeader header) {
      put = header;
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
      isQuitting = true;
      pauseParser();
    } else {
      add((Command) parsed);
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
    add(command);
  }

  private void onSkippedChunk(Buffer chunk) {
    bodyRemaining -= chunk.length();
    if (bodyRemaining > 0) {
      parser.fixedSizeMode(nextChunkSize());
      return;
    }
    put = null;
    backToLines();
    add(new Command.JobTooBig());
  }

  private int nextChunkSize() {
    return (int) Math.min(bodyRemaining, BODY_CHUNK_BYTES);
  }

  private void backToLines() {
    mode = Mode.LINE;
    parser.delimitedMode(CRLF);
  }

  private void add(Command command) {
    batch.add(command);
    if (batch.size() >= MAX_BATCH_COMMANDS) {
      pauseParser();
    }
  }

  private void pauseParser() {
    if (!isParserPaused) {
      isParserPaused = true;
      parser.pause();
    }
  }

  /** Sends what has been parsed, unless a batch is still out; closes after a quit. */
  private void dispatch() {
    if (isInFlight || isClosed) {
      return;
    }
    if (!batch.isEmpty()) {
      List<Command> commands = batch;
      batch = new ArrayList<>();
      isInFlight = true;
      pauseParser();
      bus.send(EngineAddress.REQUESTS, new EngineRequest.Submit(ref, commands));
    } else if (isQuitting) {
      socket.close();
    }
  }

  private void resumeInput() {
    if (!isQuitting) {
      isParserPaused = false;
      parser.resume();
    }
    afterParse();
    if (isSocketPaused && parserHeldBytes <= INPUT_LIMIT_BYTES && !isQuitting) {
      isSocketPaused = false;
      socket.resume();
    }
  }

  // ---------------------------------------------------------------- output

  void onReply(EngineReply reply) {
    unwritten.addAll(reply.replies());
    if (reply.isComplete()) {
      isBatchAnswered = true;
    }
    writeOut();
  }

  private void writeOut() {
    if (isClosed) {
      return;
    }
    while (!unwritten.isEmpty() && !socket.writeQueueFull()) {
      Buffer out = Buffer.buffer(128);
      do {
        ReplyEncoder.encode(unwritten.poll(), out);
      } while (!unwritten.isEmpty() && out.length() < WRITE_CHUNK_BYTES);
      socket.write(out);
    }
    if (!unwritten.isEmpty() || socket.writeQueueFull()) {
      // A client that does not read its replies stops being read from.
      socket.drainHandler(v -> writeOut());
      return;
    }
    if (isBatchAnswered) {
      isBatchAnswered = false;
      isInFlight = false;
      resumeInput();
    }
  }

  private void closed() {
    if (isClosed) {
      return;
    }
    isClosed = true;
    unwritten.clear();
    bus.send(EngineAddress.REQUESTS, new EngineRequest.Close(ref));
    onClosed.run();
  }
}
