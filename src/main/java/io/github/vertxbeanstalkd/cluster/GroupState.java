package io.github.vertxbeanstalkd.cluster;


/**
 * Where this node stands in its replication group (REPLICATION.md), for /healthz,
 * /readyz, the metrics and the logs. Immutable; {@link GroupStatus} holds the current one.
 *
 * @param role {@code primary}, {@code standby} or {@code syncing}
 * @param term the fencing token of the group's lock this node last saw (0: none yet)
 * @param standbys on a primary, the standbys that are caught up
 * @param isDegraded on a primary, fewer caught-up standbys than minAcks, so changes are
 *     acknowledged on the primary alone (whenTooFewStandbys "serve") or refused ("refuse")
 * @param lagBytes on a standby, the bytes of records the primary has logged that it has not applied
 * @param isFencingSafe false in Hazelcast's "unsafe mode" (fewer than three CP members)
 * @param failovers how many times this node became primary after another
 * @param servesProtocol its TCP port serves the queue (a primary; a forwarding standby)
 * @param waitingFor what the node waits for before its group can elect (for example "2 of 3 CP
 *     members"), or null
 *
 * @see <a href="{@docRoot}/../spec/REPLICATION.html">REPLICATION.md</a>
 */
public record GroupState(String role, long term, int standbys, boolean isDegraded, long lagBytes,
    boolean isFencingSafe, long failovers, boolean servesProtocol, String waitingFor) {
  public static final String PRIMARY = "primary";
  public static final String STANDBY = "standby";
  public static final String SYNCING = "syncing";

  public GroupState(String role, long term, int standbys, boolean isDegraded, long lagBytes, boolean isFencingSafe,
      long failovers, boolean servesProtocol) {
    this(role, term, standbys, isDegraded, lagBytes, isFencingSafe, failovers, servesProtocol, null);
  }

  public boolean isPrimary() {
    return PRIMARY.equals(role);
  }

  /** This primary's state once its lease lapsed: it serves nothing and is not the primary any client may count on. */
  public GroupState lapsed() {
    return new GroupState(SYNCING, term, 0, false, 0, isFencingSafe, failovers, false);
  }
}
