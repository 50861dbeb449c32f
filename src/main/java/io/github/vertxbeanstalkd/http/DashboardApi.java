package io.github.vertxbeanstalkd.http;

import io.github.vertxbeanstalkd.bus.EngineSnapshot;
import io.github.vertxbeanstalkd.cluster.GroupMembers;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/**
 * The admin page's dashboard feed, {@code GET /api/dashboard}: each tube's counters since the start
 * (puts, reserves, deletes) and its jobs by state, from the engine's snapshot (the one /metrics
 * reads, O(tubes), never a walk over jobs), and in a replication group its nodes. The page polls it
 * and keeps the history for its charts itself, so the server holds no series and costs one
 * snapshot per poll.
 */
final class DashboardApi {
  private final EngineCalls engine;
  /** Null when the node is not replicated. */
  private final GroupMembers members;

  DashboardApi(EngineCalls engine, GroupMembers members) {
    this.engine = engine;
    this.members = members;
  }

  void addRoutes(Router router) {
    AdminApi.get(router, "/api/dashboard", ctx -> engine.snapshot().map(this::feed));
  }

  private JsonObject feed(EngineSnapshot s) {
    JsonArray tubes = new JsonArray();
    for (EngineSnapshot.TubeCounts t : s.tubes().values()) {
      tubes.add(new JsonObject().put("name", t.name()).put("puts", t.totalJobs()).put("reserves", t.reserves())
          .put("deletes", t.deletes()).put("ready", t.ready()).put("reserved", t.reserved())
          .put("delayed", t.delayed()).put("buried", t.buried()));
    }
    JsonObject feed = new JsonObject().put("takenAt", s.takenAtEpochMillis()).put("tubes", tubes);
    return members == null ? feed : feed.put("nodes", members.members());
  }
}
