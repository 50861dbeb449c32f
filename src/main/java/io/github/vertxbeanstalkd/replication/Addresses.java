package io.github.vertxbeanstalkd.replication;

/**
 * The cluster-wide event-bus addresses of one replication group: the primary's (consumed by the
 * primary only), the announcements of a new term, and this node's own, where its batches come.
 */
record Addresses(String primary, String announcements, String node) {
  static Addresses of(String group, String nodeId) {
    String prefix = "beanstalkd.replication." + group + ".";
    return new Addresses(prefix + "primary", prefix + "term", prefix + "node." + nodeId);
  }
}
