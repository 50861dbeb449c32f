package io.github.vertxbeanstalkd.client;

import io.github.vertxbeanstalkd.contract.Failure;
import io.vertx.core.VertxException;

/** The queue refused a request of the {@link BeanstalkClient}: the protocol's word, and why. */
public final class BeanstalkException extends VertxException {
  private final Failure failure;

  public BeanstalkException(Failure failure, String message) {
    super(message, true);
    this.failure = failure;
  }

  /** The protocol's reply word, such as {@link Failure#NOT_FOUND} or {@link Failure#TIMED_OUT}. */
  public Failure failure() {
    return failure;
  }

  /** True when {@code error} is this failure of the queue. */
  public static boolean is(Throwable error, Failure failure) {
    return error instanceof BeanstalkException e && e.failure == failure;
  }
}
