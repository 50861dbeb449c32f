/**
 * The cluster as this node sees it: where it stands in its replication group ({@link
 * io.github.vertxbeanstalkd.cluster.GroupState}, held by {@link io.github.vertxbeanstalkd.cluster.GroupStatus}),
 * the nodes of the cluster ({@link io.github.vertxbeanstalkd.cluster.ClusterNodes}) and its routes to
 * event-bus addresses ({@link io.github.vertxbeanstalkd.cluster.AddressRoutes}). It imports nothing
 * of ours: the replication layer writes the group's state, the fronts and the client read it.
 */
package io.github.vertxbeanstalkd.cluster;
