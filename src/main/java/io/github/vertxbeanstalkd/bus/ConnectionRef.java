package io.github.vertxbeanstalkd.bus;

/** Names one TCP connection: its front's reply address and its number there. */
public record ConnectionRef(String replyAddress, long localId) implements ClientRef {}
