package io.github.vertxbeanstalkd.replication;

/**
 * The cluster-wide event-bus addresses of one replication group: the primary's (consumed by the
 * primary only), the announcements of a new term, and this node's own, where its batches come
 * and where it answers with its position.
 */
record Addresses(String primary, String announcements, String node) {
  static Addresses of(String group, String nodeId) {
    String prefix = "beanstalkd.replication." + group + ".";
    return new Addresses(prefix + "primary", prefix + "term", prefix + "node." + nodeId);
  }

  /** Where this node answers how far it applied the primary's stream. */
  String position() {
    return node + ".position";
  }
}
