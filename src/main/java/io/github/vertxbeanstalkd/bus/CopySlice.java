package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.persistence.BinlogRecord;
import java.util.List;

/**
 * A slice of a standby's full copy: the current state of the live jobs in a run of the engine's
 * slots, read in one engine turn and handed to the {@link ChangeStream} at that point of the
 * change stream, so the standby applies it exactly between the changes logged before and after.
 *
 * @param standby the standby's address, as it subscribed
 * @param copy which copy of that standby this slice belongs to (a new subscription starts another)
 * @param sequence the binlog sequence of the latest change logged before the slice was read
 * @param nextJobId the id the next put takes (ids of jobs put and deleted before the copy are taken)
 * @param jobs the live jobs of the slice's slots, as log snapshots
 * @param nextCursor the slot the next slice starts at, or -1 when this slice is the copy's last
 */
public record CopySlice(String standby, long copy, long sequence, long nextJobId,
    List<BinlogRecord.JobSnapshot> jobs, int nextCursor) {
  public boolean isLast() {
    return nextCursor < 0;
  }
}
