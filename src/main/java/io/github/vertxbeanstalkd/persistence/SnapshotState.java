package io.github.vertxbeanstalkd.persistence;

/**
 * The state a job is stored in. A reserved job is stored as ready: after a restart nobody holds it
 * (BEHAVIOURS.md, {@code -b}: a job that was reserved comes back ready). The codes are part of the
 * on-disk format (FORMAT.md).
 *
 * @see <a href="{@docRoot}/../spec/BEHAVIOURS.html">BEHAVIOURS.md</a>
 */
public enum SnapshotState {
  READY(0), DELAYED(1), BURIED(2);

  private final int code;

  SnapshotState(int code) {
    this.code = code;
  }

  int code() {
    return code;
  }

  /** The state of each code, by code; read once a job (values() makes a new array each call). */
  private static final SnapshotState[] BY_CODE = {READY, DELAYED, BURIED};

  /** The state for a stored code, or null for a code this version does not know. */
  static SnapshotState ofCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
