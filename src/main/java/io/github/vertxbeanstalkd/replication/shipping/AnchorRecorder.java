package io.github.vertxbeanstalkd.replication.shipping;

import io.github.vertxbeanstalkd.persistence.LogPosition;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A primary's anchors of its own stream ({@link StreamAnchors}): now and then it reads, in one
 * engine turn, the stream's offset and where the log's next record goes, and writes that anchor
 * once the log made every record before it durable. It keeps the anchors of the last stretch of
 * the stream a standby can be behind by and still resume, so that this node, restarted after it
 * lost the lock, tells which jobs its diverged tail touched by reading that stretch of its log.
 * Runs on the replication node's context.
 */
public final class AnchorRecorder {
  private static final Logger log = LoggerFactory.getLogger(AnchorRecorder.class);
  /** Stream bytes the kept anchors reach back: past the most a following standby may lag before it is dropped. */
  static final long REACH_BYTES = Shipper.MAX_QUEUED_BYTES + Shipper.WINDOW_BYTES + (8L << 20);
  /** Anchors kept at most, whatever the stream's pace. */
  private static final int MAX_ANCHORS = 64;
  /** Ticks between anchors once one is kept. */
  private static final int TICKS_PER_ANCHOR = 5;

  /** An anchor read in the engine, and the sequence of the last record before it. */
  record Taken(StreamAnchors.Anchor anchor, long sequence, long durableSequence) {}

  private final Vertx vertx;
  private final StreamAnchors file;
  private final EngineShipping engine;
  private final ChangeOutbox outbox;
  private final long term;
  private final ArrayDeque<Taken> waiting = new ArrayDeque<>();
  private final List<StreamAnchors.Anchor> kept = new ArrayList<>();
  private int ticks;
  private boolean isTaking;
  private volatile boolean isStopped;

  public AnchorRecorder(Vertx vertx, StreamAnchors file, EngineShipping engine, ChangeOutbox outbox, long term) {
    this.vertx = vertx;
    this.file = file;
    this.engine = engine;
    this.outbox = outbox;
    this.term = term;
  }

  /** Every tick of the replication node: a new anchor now and then, and those made durable written. */
  public void tick() {
    if (isStopped || isTaking || (!kept.isEmpty() && ticks++ % TICKS_PER_ANCHOR != 0)) {
      return;
    }
    isTaking = true;
    engine.run(port -> {
      LogPosition at = port.logPosition();
      return at == null ? null
          : new Taken(new StreamAnchors.Anchor(outbox.offset(), at), port.lastSequence(), port.localDurableSequence());
    }).onComplete(r -> {
      isTaking = false;
      if (isStopped || r.failed() || r.result() == null) {
        return;
      }
      Taken t = r.result();
      if (waiting.isEmpty() || waiting.peekLast().anchor().offset() != t.anchor().offset()) {
        waiting.add(t);
      }
      boolean isNew = false;
      while (!waiting.isEmpty() && waiting.peek().sequence() <= t.durableSequence()) {
        StreamAnchors.Anchor a = waiting.poll().anchor();
        if (kept.isEmpty() || kept.get(kept.size() - 1).offset() != a.offset()) {
          kept.add(a);
          isNew = true;
        }
      }
      long newest = kept.isEmpty() ? 0 : kept.get(kept.size() - 1).offset();
      // The oldest one kept reaches at least REACH_BYTES back.
      while (kept.size() > MAX_ANCHORS || (kept.size() > 1 && kept.get(1).offset() <= newest - REACH_BYTES)) {
        kept.remove(0);
      }
      if (isNew) {
        StreamAnchors.Kept now = new StreamAnchors.Kept(term, List.copyOf(kept));
        vertx.executeBlocking(() -> {
          if (!isStopped) {
            file.write(now);
          }
          return null;
        }).onFailure(e -> log.warn("replication: could not keep this primary's stream anchors: {}", e.toString()));
      }
    });
  }

  /** This node is no longer primary: no more anchors, and those on disk are deleted (in order after any write). */
  public Future<Void> stop() {
    isStopped = true;
    return vertx.executeBlocking(() -> {
      file.delete();
      return null;
    });
  }
}
