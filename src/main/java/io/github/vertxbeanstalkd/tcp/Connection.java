package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.bus.ConnectionSession;
import io.github.vertxbeanstalkd.bus.EngineReply;
import io.github.vertxbeanstalkd.bus.SessionHost;
import io.github.vertxbeanstalkd.metrics.CommandDurations;
import io.github.vertxbeanstalkd.protocol.Command;
import io.netty.buffer.ByteBuf;
import io.vertx.core.Context;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * One client socket, its input half: every command its {@link CommandReader} finds in what has
 * arrived travels to the engine (this node's, or the group's primary's: see {@link SessionHost}) as
 * one batch; the next batch goes only once this one is answered and written (by its output half,
 * {@link ReplyWriter}), so replies keep their order and a blocked reserve holds back what was
 * pipelined behind it.
 *
 * <p>Memory stays bounded: input is read ahead by at most {@link #INPUT_LIMIT_BYTES}, and replies
 * wait as references while the socket's write queue is full, during which nothing more is read;
 * what waits so is counted with every other connection's in {@link HeldReplies}.
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
final class Connection implements CommandReader.Listener, ChannelIo.Listener, HeldReplies.Holder, ReadAhead.Waiter {
  static final int INPUT_LIMIT_BYTES = 64 * 1024;

  private final NetSocket socket;
  private final Context context;
  private ChannelIo io;
  private final SessionHost engine;
  private ConnectionSession session;
  private final CommandReader reader;
  private final Runnable onClosed;
  private final CommandDurations durations;
  private final HeldReplies held;
  private final ReadAhead readAhead;
  private final PressedReads reads;
  /** What {@link #readAhead} was last told this connection holds. */
  private long readAheadBytes;
  /** What {@link #held} was last told this connection holds. */
  private long heldBytes;
  private final int maxBodiesPerBatch;
  private int bodiesInBatch;
  private int documentsInBatch;

  private boolean isSocketPaused;
  /** Commands read for the next batch; it and {@link #inFlight} swap, so neither is made anew per batch. */
  private ArrayList<Command> batch = new ArrayList<>();
  private boolean isInFlight;
  private boolean isBatchAnswered;
  private boolean isQuitting;
  private boolean isInputEnded;
  private boolean isClosed;
  private boolean isShuttingDown;
  private final ReplyWriter replies = new ReplyWriter();
  /** The batch with the engine (empty when none is), how many of its commands are answered, and when it went. */
  private ArrayList<Command> inFlight = new ArrayList<>();
  private int answered;
  private long sentNanos;

  Connection(NetSocket socket, Context context, ChunkPool chunks, HeldReplies held, ReadAhead readAhead,
      PressedReads reads, SessionHost engine, long maxJobSizeBytes, Runnable onClosed, CommandDurations durations) {
    this.held = held;
    this.readAhead = readAhead;
    this.reads = reads;
    this.socket = socket;
    this.context = context;
    this.engine = engine;
    this.reader = new CommandReader(maxJobSizeBytes, this, chunks);
    this.onClosed = onClosed;
    this.durations = durations;
    this.maxBodiesPerBatch = BatchLimits.bodiesPerBatch(maxJobSizeBytes);
  }

  void start() {
    session = engine.open(this::onReply);
    io = ChannelIo.attach(socket, context, this, reads);
    socket.exceptionHandler(e -> socket.close());
    socket.closeHandler(v -> closed());
    HalfClose.watch(socket, this::onInputEnded);
  }

  /** The client sent its FIN: answer what it sent before, then close. */
  private void onInputEnded() {
    if (isClosed || isInputEnded) {
      return;
    }
    isInputEnded = true;
    session.endInput();
    reader.unhold();
    afterInput();
  }

  // ---------------------------------------------------------------- input
  /**
   * The server is stopping: nothing more is read, the batch with the engine is answered and written,
   * then the socket closes. A reserve that is waiting for a job is not waited for.
   */
  void shutDown() {
    isShuttingDown = true;
    reader.pause();
    io.stopReading();
    closeIfDone();
  }

  private void closeIfDone() {
    if (isClosed || !replies.isEmpty()) {
      return;
    }
    boolean isWaitingInReserve = answered < inFlight.size()
        && inFlight.get(answered) instanceof Command.Reserve r && r.timeoutSeconds() != 0;
    if (!isInFlight || isWaitingInReserve) {
      closed();
      socket.close();
    }
  }

  @Override
  public void onInput(ByteBuf data) {
    if (isQuitting || isClosed || isShuttingDown) {
      return;
    }
    if (isSocketPaused) {
      // Netty drains a socket its client reset or half-closed, reading stopped or not: kept unread,
      // so that a storm of resets sends the engine nothing more (each close drops it at once).
      reader.hold();
    }
    reader.feed(data);
    afterInput();
  }

  @Override
  public void onCommand(Command command) {
    batch.add(command);
    if (Command.isAnsweredWithBody(command)) {
      bodiesInBatch++;
    } else if (Command.isAnsweredWithDocument(command)) {
      documentsInBatch++;
    }
    if (batch.size() >= readAhead.batchCommands() || bodiesInBatch >= maxBodiesPerBatch
        || documentsInBatch >= BatchLimits.MAX_BATCH_DOCUMENTS) {
      reader.pause();
    }
  }

  @Override
  public void onQuit() {
    isQuitting = true;
  }

  private void afterInput() {
    dispatch();
    reportReadAhead(reader.chunkBytes());
    if (!isSocketPaused && !isClosed && mustStopReading()) {
      isSocketPaused = true;
      io.stopReading();
      readAhead.waitForRoom(this);
    }
    updateHeld();
  }

  /**
   * Whether to stop reading: while the reader waits on a batch and holds more than it may read
   * ahead (what it waits for frees what it holds), or while a put's body arrives and the front's
   * input is past its limit (the body's chunks are held until its batch is answered).
   */
  private boolean mustStopReading() {
    return reader.isPaused() ? reader.heldBytes() > readAhead.allowedBytes()
        : reader.isReadingBody() && readAhead.isPassed();
  }

  @Override
  public void roomAgain() {
    if (isClosed || !isSocketPaused || isQuitting || isShuttingDown) {
      return;
    }
    reader.unhold();
    afterInput();
    if (mustStopReading()) {
      readAhead.waitForRoom(this);
      return;
    }
    isSocketPaused = false;
    io.startReading();
    updateHeld();
  }

  @Override
  public long inputBytes() {
    return readAheadBytes;
  }

  @Override
  public void closeForHoldingInput() {
    closed();
    io.reset();
  }

  private void reportReadAhead(long bytes) {
    if (bytes != readAheadBytes) {
      readAhead.changed(readAheadBytes, bytes);
      readAheadBytes = bytes;
    }
  }

  /** Sends what has been parsed, unless a batch is still out; closes after a quit. */
  private void dispatch() {
    if (isInFlight || isClosed) {
      return;
    }
    boolean announcesPut = reader.announcePendingPut();
    if (!batch.isEmpty()) {
      ArrayList<Command> commands = batch;
      // The engine reads the list when the batch reaches it, before it answers: once the batch
      // is answered, the list is free to gather the next one.
      batch = inFlight;
      bodiesInBatch = 0;
      documentsInBatch = 0;
      isInFlight = true;
      inFlight = commands;
      answered = 0;
      reader.batchDispatched();
      if (durations.isEnabled()) {
        sentNanos = System.nanoTime();
      }
      reader.pause();
      session.submit(commands);
    } else if (!announcesPut && (isQuitting || isInputEnded)) {
      // BEHAVIOURS.md 1: quit releases the connection's jobs at once, so the engine hears of it
      // now, in order with every other connection's commands, not when Netty reports the close.
      closed();
      socket.close();
      return;
    }
    if (announcesPut) {
      // After the commands before it. No reply comes for it, so nothing waits: the body keeps
      // streaming in.
      session.submit(List.of(reader.isPendingPutTooBig() ? Command.PutLine.TOO_BIG : Command.PutLine.FITS));
    }
  }

  private void resumeInput() {
    if (!isQuitting) {
      reader.resume();
      reader.unhold();
    }
    afterInput();
    if (isSocketPaused && !mustStopReading() && !isQuitting) {
      isSocketPaused = false;
      readAhead.stopWaiting(this);
      io.startReading();
    }
  }

  // ---------------------------------------------------------------- output
  private void onReply(EngineReply reply) {
    int n = reply.replyCount();
    if (n == 0) {
      // A notice (its last job timed out, or the session ended): nothing to write.
      return;
    }
    if (durations.isEnabled()) {
      long nanos = System.nanoTime() - sentNanos;
      for (int i = 0; i < n && answered + i < inFlight.size(); i++) {
        durations.record(inFlight.get(answered + i), nanos);
      }
    }
    answered += n;
    for (int i = 0; i < n; i++) {
      replies.add(reply.reply(i));
    }
    if (reply.isComplete()) {
      isBatchAnswered = true;
    }
    writeOut();
  }

  @Override
  public void onWritable() {
    writeOut();
  }

  private void writeOut() {
    if (isClosed) {
      return;
    }
    replies.writeTo(io);
    updateHeld();
    if (!replies.isEmpty() || !io.isWritable()) {
      // A client that does not read its replies stops being read from; the channel says when it
      // can take more (onWritable).
      return;
    }
    if (isBatchAnswered) {
      isBatchAnswered = false;
      isInFlight = false;
      if (inFlight.size() > ReadAhead.PRESSED_BATCH_COMMANDS) {
        // Not kept at a thousand commands' room: a thousand connections would each keep 8 KiB.
        inFlight = new ArrayList<>();
      } else {
        inFlight.clear();
      }
      // Every command of the batch has run: the engine has copied the bodies its puts lent it.
      reader.batchAnswered();
      if (isShuttingDown) {
        closeIfDone();
        return;
      }
      resumeInput();
    } else if (isShuttingDown) {
      closeIfDone();
    }
  }

  /**
   * What this connection holds while its client does not read: the replies, and what the client
   * sent meanwhile (its input chunks, and the commands read, as objects here and in the engine).
   */
  private long heldNow() {
    return replies.bytes(io) + reader.chunkBytes()
        + BatchLimits.COMMAND_HEAP_BYTES * (inFlight.size() - answered + batch.size());
  }

  /**
   * Tells {@link #held} what this connection holds: while its replies wait to be written or it was
   * stopped being read from, its input and commands too; otherwise nothing, since what a client
   * that reads holds is gone within its batch.
   */
  private void updateHeld() {
    boolean isHolding = !isClosed && (isSocketPaused || !replies.isEmpty() || !io.isWritable());
    reportHeld(isHolding ? heldNow() : 0);
  }

  private void reportHeld(long bytes) {
    if (bytes != heldBytes) {
      long before = heldBytes;
      heldBytes = bytes;
      held.hold(this, before, bytes);
    }
  }

  @Override
  public long heldBytes() {
    return heldBytes;
  }

  @Override
  public long repliesBytes() {
    return replies.bytes(io);
  }

  @Override
  public void closeForHoldingReplies() {
    heldBytes = 0;
    closed();
    io.reset();
  }

  private void closed() {
    if (isClosed) {
      return;
    }
    isClosed = true;
    replies.clear();
    // A batch out may hold bodies in the input's chunks until the engine has dropped it: they count
    // until the session's end (2,200 clients pipelining large puts, closed for what they held, had
    // 100 MiB of them uncounted in a -Xmx128m server).
    long lent = isInFlight ? reader.chunkBytes() : 0;
    reader.close();
    batch = new ArrayList<>(0);
    inFlight = batch;
    reportHeld(0);
    readAhead.stopWaiting(this);
    reportReadAhead(lent);
    session.close(() -> reportReadAhead(0));
    onClosed.run();
  }
}
