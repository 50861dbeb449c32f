package io.github.vertxbeanstalkd.engine;

/**
 * A connection's put line arrived ahead of its body (over max-job-size when {@code isTooBig}):
 * queued in the session in order with its commands, it counts the put and takes its id.
 */
record PutAnnouncement(boolean isTooBig) {}
