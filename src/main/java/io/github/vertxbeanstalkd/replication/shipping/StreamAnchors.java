package io.github.vertxbeanstalkd.replication.shipping;

import io.github.vertxbeanstalkd.persistence.AtomicFile;
import io.github.vertxbeanstalkd.persistence.LogPosition;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a primary keeps, beside its binlog, points that tie offsets of its own stream of frames to
 * places in its log (its anchors): after such a place, every record of its log but each segment's
 * first is a frame of its stream, in order. Written while it is primary, each anchor once its log
 * made the records before it durable; deleted when it steps down, and claimed (read and deleted)
 * by the next start, before the log can change, so the anchors always describe the log of the run
 * just before. Blocking: call it off the event loop.
 *
 * <p>To change this format: it is {@code {"term": T, "anchors": [[offset, segment, bytes], ...]}}
 * in UTF-8, oldest anchor first ({@link LogPosition} for segment and bytes); a file that cannot be
 * read, or lacks a key, means "no anchors" (a full copy after a restart), never an error.
 */
public final class StreamAnchors {
  /** The stream of this node's term was at {@code offset} where its log was at {@code position}. */
  record Anchor(long offset, LogPosition position) {}

  /** The anchors of the stream of {@code term}, oldest first. */
  record Kept(long term, List<Anchor> anchors) {}

  static final String NAME = "replication-stream.json";
  private final AtomicFile file;

  public StreamAnchors(Path dir) {
    this.file = new AtomicFile(dir.resolve(NAME));
  }

  /** The anchors written last, or null when there are none (or they cannot be read). */
  Kept read() {
    String text = file.read();
    if (text == null) {
      return null;
    }
    try {
      JsonObject j = new JsonObject(text);
      Long term = j.getLong("term");
      JsonArray anchors = j.getJsonArray("anchors");
      if (term == null || anchors == null || anchors.isEmpty()) {
        return null;
      }
      List<Anchor> list = new ArrayList<>();
      for (int i = 0; i < anchors.size(); i++) {
        JsonArray a = anchors.getJsonArray(i);
        list.add(new Anchor(a.getLong(0), new LogPosition(a.getLong(1), a.getLong(2))));
      }
      return new Kept(term, List.copyOf(list));
    } catch (DecodeException | ClassCastException | IndexOutOfBoundsException | NullPointerException e) {
      return null;
    }
  }

  /** Replaces the anchors at once (a crash leaves the old ones or the new ones), and syncs them. */
  void write(Kept kept) {
    JsonArray anchors = new JsonArray();
    for (Anchor a : kept.anchors()) {
      anchors.add(new JsonArray().add(a.offset()).add(a.position().segment()).add(a.position().bytes()));
    }
    file.write(new JsonObject().put("term", kept.term()).put("anchors", anchors).encode());
  }

  /** Forgets the anchors, durably. */
  void delete() {
    file.delete();
  }
}
