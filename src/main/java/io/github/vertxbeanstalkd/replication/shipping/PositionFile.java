package io.github.vertxbeanstalkd.replication.shipping;

import io.github.vertxbeanstalkd.persistence.AtomicFile;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;

/**
 * Where a standby keeps, beside its binlog, how far it applied which history's stream: written only
 * once its own binlog made those records durable, deleted before a fresh copy drops its jobs and
 * when the node becomes primary. A restarted standby resumes from it when the primary's backlog
 * still reaches back that far. Blocking: call it off the event loop.
 *
 * <p>To change this format: it is {@code {"term": T, "offset": O}} in UTF-8 (O an offset in the
 * stream of frames, see {@link PriorStream}); a file that cannot be read, or that lacks either key
 * (one written by a build that kept a binlog sequence instead), means "no position" (a full copy),
 * never an error.
 */
public final class PositionFile {
  /** A position: the history of {@code term} applied up to {@code offset} in its stream of frames. */
  record Position(long term, long offset) {}

  static final String NAME = "replication-position.json";
  private final AtomicFile file;

  public PositionFile(Path dir) {
    this.file = new AtomicFile(dir.resolve(NAME));
  }

  /** The position written last, or null when there is none (or it cannot be read). */
  Position read() {
    String text = file.read();
    if (text == null) {
      return null;
    }
    try {
      JsonObject j = new JsonObject(text);
      Long term = j.getLong("term");
      Long offset = j.getLong("offset");
      return term == null || offset == null || term < 0 || offset < 0 ? null : new Position(term, offset);
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
  }

  /** Replaces the position at once (a crash leaves the old one or the new one), and syncs it. */
  void write(Position p) {
    file.write(new JsonObject().put("term", p.term()).put("offset", p.offset()).encode());
  }

  /** Forgets the position, durably, before the jobs it describes change by other means. */
  void delete() {
    file.delete();
  }
}
