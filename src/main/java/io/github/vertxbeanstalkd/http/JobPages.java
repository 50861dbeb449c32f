package io.github.vertxbeanstalkd.http;

import io.github.vertxbeanstalkd.bus.JobCursor;
import io.github.vertxbeanstalkd.bus.JobPage;
import io.github.vertxbeanstalkd.bus.JobQuery;
import io.github.vertxbeanstalkd.bus.ListedJob;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The admin API's job listing: one page, gathered from as many bounded engine answers as it takes
 * (each a request of its own, so other clients' commands run in between), up to
 * {@link #MAX_ROUNDS}; past that, the page comes back short with a cursor to go on from.
 */
final class JobPages {
  /** Engine answers per page: enough to read and sort a million-job tube's keys at 4,096 a turn. */
  static final int MAX_ROUNDS = 1024;

  private final EngineCalls engine;

  JobPages(EngineCalls engine) {
    this.engine = engine;
  }

  /** The page as JSON: {@code jobs}, and {@code next}/{@code previous} cursors (null at an end). */
  Future<JsonObject> page(JobQuery query) {
    Gathered g = new Gathered(query);
    Future<Gathered> done = query.isBackwards() ? backwards(g, query, 0) : forwards(g, query, 0);
    return done.map(Gathered::toJson);
  }

  private Future<Gathered> forwards(Gathered g, JobQuery q, int round) {
    return engine.listJobs(q).compose(p -> {
      g.jobs.addAll(p.jobs());
      if (p.first() != null && g.first == null) {
        g.first = p.first();
        g.isAtStart = p.isAtStart();
      }
      if (p.last() != null) {
        g.last = p.last();
      }
      g.isAtEnd = p.isAtEnd() && !p.isCut();
      g.resume = p.resume();
      if (p.isCut() && g.jobs.size() < g.limit && round + 1 < MAX_ROUNDS) {
        return forwards(g, with(q, p.resume(), null, g.limit - g.jobs.size()), round + 1);
      }
      return Future.succeededFuture(g);
    });
  }

  private Future<Gathered> backwards(Gathered g, JobQuery q, int round) {
    return engine.listJobs(q).compose(p -> {
      g.jobs.addAll(0, p.jobs());
      if (p.last() != null && g.last == null) {
        g.last = p.last();
        g.isAtEnd = p.isAtEnd();
      }
      if (p.first() != null) {
        g.first = p.first();
      }
      g.isAtStart = p.isAtStart() && !p.isCut();
      g.resume = p.resume();
      if (p.isCut() && g.jobs.size() < g.limit && round + 1 < MAX_ROUNDS) {
        return backwards(g, with(q, null, p.resume(), g.limit - g.jobs.size()), round + 1);
      }
      if (g.isAtStart && g.jobs.size() < g.limit) {
        // Back at the start with a short page: show the first page whole instead.
        Gathered fresh = new Gathered(q);
        return forwards(fresh, with(q, JobCursor.START, null, g.limit), round + 1);
      }
      return Future.succeededFuture(g);
    });
  }

  private static JobQuery with(JobQuery q, JobCursor after, JobCursor before, int limit) {
    return new JobQuery(q.tube(), q.state(), after, before, limit, q.filter(), q.previewBytes());
  }

  /** What the rounds found so far. */
  private static final class Gathered {
    final int limit;
    final boolean isBackwards;
    final boolean hasPreview;
    final List<ListedJob> jobs = new ArrayList<>();
    JobCursor first;
    JobCursor last;
    JobCursor resume;
    boolean isAtStart;
    boolean isAtEnd;

    Gathered(JobQuery q) {
      this.limit = q.limit();
      this.isBackwards = q.isBackwards();
      this.hasPreview = q.previewBytes() > 0;
    }

    JsonObject toJson() {
      JsonArray listed = new JsonArray();
      for (ListedJob j : jobs) {
        listed.add(json(j, hasPreview));
      }
      JobCursor next;
      JobCursor previous;
      if (resume != null && !isBackwards) {
        next = resume;
      } else {
        next = isAtEnd || last == null ? null : last;
      }
      if (resume != null && isBackwards) {
        previous = resume;
      } else {
        previous = isAtStart || first == null ? null : first;
      }
      return new JsonObject().put("jobs", listed)
          .put("next", next == null ? null : next.toString())
          .put("previous", previous == null ? null : previous.toString())
          .put("complete", resume == null);
    }
  }

  /** A job with stats-job's names for what stats-job shows, and the start of its body. */
  static JsonObject json(ListedJob j, boolean hasPreview) {
    JsonObject o = new JsonObject().put("id", j.id()).put("state", j.state().word()).put("pri", j.priority())
        .put("age", j.ageSeconds()).put("delay", j.delaySeconds()).put("ttr", j.ttrSeconds())
        .put("time-left", j.timeLeftSeconds()).put("reserves", j.reserves()).put("timeouts", j.timeouts())
        .put("releases", j.releases()).put("buries", j.buries()).put("kicks", j.kicks())
        .put("cursor", j.key().toString());
    if (!j.deadLetteredFrom().isEmpty()) {
      o.put("deadLetter", new JsonObject().put("reason", "maxReserves").put("from", j.deadLetteredFrom()));
    }
    if (hasPreview) {
      BodyPreview.of(j.bodyStart(), j.bodyBytes()).addTo(o);
    } else {
      o.put("bodyBytes", j.bodyBytes());
    }
    return o;
  }
}
