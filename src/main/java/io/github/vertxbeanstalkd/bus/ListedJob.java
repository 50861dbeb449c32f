package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.JobState;

/**
 * One job of a listing, as {@code stats-job} would show it when the page was made, with the start
 * of its body ({@code bodyStart}, at most the preview asked for, of {@code bodyBytes}).
 *
 * @param timeLeftSeconds for a delayed job, until it is ready; for a reserved one, until its TTR runs out; else 0
 * @param deadLetteredFrom the tube whose maxReserves buried it, or an empty string
 */
public record ListedJob(long id, JobState state, JobCursor key, long priority, long ageSeconds, long delaySeconds,
    long timeLeftSeconds, long ttrSeconds, int bodyBytes, int reserves, int timeouts, int releases, int buries,
    int kicks, String deadLetteredFrom, byte[] bodyStart) {}
