package io.github.vertxbeanstalkd.persistence;

/**
 * The {@code binlog-*} values of the {@code stats} document, and the log's size on disk; all 0 but
 * the maximum file size without a binlog.
 */
public record BinlogStats(long oldestIndex, long currentIndex, long recordsMigrated, long recordsWritten,
    long maxSizeBytes, long diskBytes) {}
