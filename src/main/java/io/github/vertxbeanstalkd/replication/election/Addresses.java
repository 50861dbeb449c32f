package io.github.vertxbeanstalkd.replication.election;

/**
 * The cluster-wide event-bus addresses of one replication group: the primary's (consumed by the
 * primary only), the announcements of a new term, this node's own, where its batches come and
 * where it answers with its position, and each term's forwarding address.
 */
public record Addresses(String prefix, String primary, String announcements, String node) {
  public static Addresses of(String group, String nodeId) {
    String prefix = "beanstalkd.replication." + group + ".";
    return new Addresses(prefix, prefix + "primary", prefix + "term", prefix + "node." + nodeId);
  }

  /**
   * Where the primary of {@code term} takes the connections standbys forward: one address per
   * term, so a standby's frames never reach an older primary that has not let go of its address yet.
   */
  public String forward(long term) {
    return prefix + "forward." + term;
  }

  /**
   * Where the primary of {@code term} also takes subscriptions: a standby told of a new primary
   * reaches that node, never an older primary that the cluster's routes still name.
   */
  public String primary(long term) {
    return primary + "." + term;
  }

  /** Where this node answers how far it applied the primary's stream. */
  public String position() {
    return node + ".position";
  }
}
