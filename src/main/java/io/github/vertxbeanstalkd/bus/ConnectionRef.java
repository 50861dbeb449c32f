package io.github.vertxbeanstalkd.bus;

/** Names one client connection: the transport's reply address and its number there. */
public record ConnectionRef(String replyAddress, long localId) {}
