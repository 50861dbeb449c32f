package io.github.vertxbeanstalkd.persistence;

/**
 * A point in a binlog directory: in segment {@code segment}, after its first {@code bytes} bytes
 * (header included), where the next record goes or went.
 */
public record LogPosition(long segment, long bytes) {}
