package io.github.vertxbeanstalkd.replication.election;

import com.hazelcast.cluster.Address;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.session.CPSession;
import com.hazelcast.cp.session.CPSessionManagementService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends, in one CP group, the sessions a departed member opened before it left, so that a lock it
 * held is free at once instead of after the session's time-to-live. Blocks: call it off the event
 * loops.
 */
final class DepartedSessions {
  private static final Logger log = LoggerFactory.getLogger(DepartedSessions.class);

  private DepartedSessions() {}

  static void close(HazelcastInstance hz, String cpGroup, Address gone, long removedAtMillis) {
    try {
      CPSessionManagementService sessions = hz.getCPSubsystem().getCPSessionManagementService();
      for (CPSession s : sessions.getAllSessions(cpGroup).toCompletableFuture().get(5, TimeUnit.SECONDS)) {
        if (s.endpoint().equals(gone) && s.creationTime() < removedAtMillis) {
          sessions.forceCloseSession(cpGroup, s.id()).toCompletableFuture().get(5, TimeUnit.SECONDS);
          log.info("replication: closed the CP session of departed member {}", gone);
        }
      }
    } catch (Exception e) {
      log.warn("replication: could not close the CP sessions of departed member {}: {}", gone, e.toString());
    }
  }
}
