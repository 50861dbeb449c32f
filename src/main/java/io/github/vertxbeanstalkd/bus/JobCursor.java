package io.github.vertxbeanstalkd.bus;

/**
 * A place in a job listing: the key of a job as a tube serves that state ({@code order} is the
 * priority for ready jobs, the deadline for delayed and reserved ones, the burial's rank for buried
 * ones), then its id. Written {@code order_id} in the admin API.
 */
public record JobCursor(long order, long id) implements Comparable<JobCursor> {
  /** Before every job. */
  public static final JobCursor START = new JobCursor(Long.MIN_VALUE, Long.MIN_VALUE);

  /** The cursor {@link #toString()} wrote; IllegalArgumentException when it is not one. */
  public static JobCursor parse(String text) {
    int cut = text.lastIndexOf('_');
    if (cut <= 0 || cut == text.length() - 1) {
      throw new IllegalArgumentException("a cursor is order_id, got " + text);
    }
    try {
      return new JobCursor(Long.parseLong(text.substring(0, cut)), Long.parseLong(text.substring(cut + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("a cursor is order_id, got " + text);
    }
  }

  @Override
  public int compareTo(JobCursor o) {
    int byOrder = Long.compare(order, o.order);
    return byOrder != 0 ? byOrder : Long.compare(id, o.id);
  }

  @Override
  public String toString() {
    return order + "_" + id;
  }
}
