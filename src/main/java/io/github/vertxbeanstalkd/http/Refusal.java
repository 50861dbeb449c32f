package io.github.vertxbeanstalkd.http;

/** A request the HTTP front refuses, with its HTTP status and the protocol's word for it. */
final class Refusal extends RuntimeException {
  final int status;
  final String word;

  Refusal(int status, String word, String message) {
    super(message, null, false, false);
    this.status = status;
    this.word = word;
  }
}
