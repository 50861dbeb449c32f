package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import java.util.HashMap;

/**
 * Where each job stands toward its tube's maxReserves, for the few jobs that need a note: one kicked
 * while tube settings exist (its count starts again at the kick) and one dead-lettered (the tube it
 * came from, for the admin API). By job id, on the heap: a job with no note counts every reserve since
 * its put and was not dead-lettered, so a server without tube settings keeps none.
 */
final class DeadLetterNotes {
  /** One job's note; {@code deadLetteredFrom} is empty unless maxReserves buried it. */
  record Note(int reservesBase, String deadLetteredFrom) {
    boolean isDeadLettered() {
      return !deadLetteredFrom.isEmpty();
    }
  }

  private final HashMap<Long, Note> byId = new HashMap<>();

  /** The job's note, or null. */
  Note of(long id) {
    return byId.isEmpty() ? null : byId.get(id);
  }

  /** The reserves that do not count toward maxReserves: those before the job's last kick. */
  int reservesBase(long id) {
    Note n = of(id);
    return n == null ? 0 : n.reservesBase();
  }

  /** The job's note is {@code note} from now on. */
  void put(long id, Note note) {
    byId.put(id, note);
  }

  /** The job is gone. */
  void forget(long id) {
    if (!byId.isEmpty()) {
      byId.remove(id);
    }
  }

  /** The job's note as the log writes it, or null when it has none. */
  BinlogRecord.DeadLetterNote record(long id) {
    Note n = of(id);
    return n == null ? null : new BinlogRecord.DeadLetterNote(id, n.reservesBase(), n.deadLetteredFrom());
  }
}
