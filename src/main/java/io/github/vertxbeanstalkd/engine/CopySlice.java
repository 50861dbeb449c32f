package io.github.vertxbeanstalkd.engine;


/**
 * A slice of a standby's full copy: the current state of the live jobs in a run of the engine's
 * slots, read in one engine turn and handed to the {@link ChangeStream} at that point of the
 * change stream, so the standby applies it exactly between the changes logged before and after.
 *
 * @param standby the standby's address, as it subscribed
 * @param copy which copy of that standby this slice belongs to (a new subscription starts another)
 * @param sequence the binlog sequence of the latest change logged before the slice was read
 * @param nextJobId the id the next put takes (ids of jobs put and deleted before the copy are taken)
 * @param frames the high-water mark ({@code nextJobId}), then the live jobs of the slice's slots as
 *     log snapshots: record frames as the binlog frames them (persistence.RecordFrames), never changed
 * @param frameBytes how many bytes of {@code frames}, from the first, hold them
 * @param jobs how many jobs the frames hold
 * @param nextCursor the slot the next slice starts at, or -1 when this slice is the copy's last
 */
public record CopySlice(String standby, long copy, long sequence, long nextJobId, byte[] frames,
    int frameBytes, int jobs, int nextCursor) {
  public boolean isLast() {
    return nextCursor < 0;
  }
}
