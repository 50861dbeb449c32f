/**
 * The binlog: a write-ahead log that makes job state survive a restart. {@link
 * io.github.vertxbeanstalkd.persistence.Binlog} is the engine-thread facade, {@link
 * io.github.vertxbeanstalkd.persistence.LogWriter} the thread that writes and fsyncs, {@link
 * io.github.vertxbeanstalkd.persistence.Replay} reads a directory back into jobs. The on-disk format
 * and the checklist for changing it are in FORMAT.md next to this file.
 */
package io.github.vertxbeanstalkd.persistence;
