package io.github.vertxbeanstalkd.bench;

/** A job a bus reserve handed out: its id, and the send time its producer stamped into the body. */
record ReservedJob(long id, long sentAtNanos) {}
