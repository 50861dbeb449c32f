package io.github.vertxbeanstalkd.api;

import io.github.vertxbeanstalkd.contract.Failure;

/** A request the front refuses before it reaches the engine: the failure word and why. */
final class RequestRefused extends Exception {
  private final Failure failure;

  RequestRefused(Failure failure, String reason) {
    super(reason == null ? failure.name() : failure.name() + " " + reason, null, false, false);
    this.failure = failure;
  }

  Failure failure() {
    return failure;
  }
}
