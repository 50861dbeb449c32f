package io.github.vertxbeanstalkd.protocol;

/** What one command line parses to: a complete command, or the header of a put whose body follows. */
public sealed interface ParsedLine permits Command, PutHeader {}
