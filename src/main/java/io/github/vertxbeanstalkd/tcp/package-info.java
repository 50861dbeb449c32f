/**
 * The TCP front: beanstalkd's wire protocol over plain TCP, TLS and unix domain sockets. {@link
 * io.github.vertxbeanstalkd.tcp.TcpServerVerticle} owns the listeners and the connections, each
 * {@link io.github.vertxbeanstalkd.tcp.Connection} reads commands ({@link
 * io.github.vertxbeanstalkd.tcp.CommandReader}) and writes replies in order, and everything reaches
 * the engine through the seam in {@code bus}.
 */
package io.github.vertxbeanstalkd.tcp;
