package io.github.vertxbeanstalkd.persistence;

/** The {@code binlog-*} values of the {@code stats} document; all 0 but the size without a binlog. */
public record BinlogStats(long oldestIndex, long currentIndex, long recordsMigrated, long recordsWritten,
    long maxSizeBytes) {}
