package io.github.vertxbeanstalkd.bus;

/**
 * Names one session of the engine: the local address of the front that opened it, where its
 * replies go, and a number the front chose. What the session stands for (a socket, an event-bus
 * session name, a forwarded connection) only the front knows.
 */
public record SessionKey(String front, long id) {}
