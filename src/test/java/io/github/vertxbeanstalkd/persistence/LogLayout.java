package io.github.vertxbeanstalkd.persistence;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Where every segment header and record of an undamaged log directory lies, oldest first, so a test
 * can damage bytes and name the records it touched.
 */
final class LogLayout {
  /** A segment header ({@code record} null) or one record, {@code bytes} long at {@code offset}. */
  record Unit(Path file, int offset, int bytes, BinlogRecord record) {
    boolean holds(Path f, int position) {
      return file.equals(f) && position >= offset && position < offset + bytes;
    }
  }

  final List<Path> files;
  final List<Unit> units = new ArrayList<>();

  private LogLayout(List<Path> files) {
    this.files = files;
  }

  static LogLayout of(Path dir) throws IOException {
    LogLayout layout = new LogLayout(SegmentFile.list(dir));
    for (Path file : layout.files) {
      byte[] data = Files.readAllBytes(file);
      layout.units.add(new Unit(file, 0, SegmentFile.HEADER_BYTES, null));
      for (int p = SegmentFile.HEADER_BYTES; p < data.length; ) {
        RecordCodec.Frame f = RecordCodec.read(data, p, data.length);
        assertNotNull(f.record(), file + " offset " + p + ": " + f.problem());
        layout.units.add(new Unit(file, p, f.frameBytes(), f.record()));
        p += f.frameBytes();
      }
    }
    return layout;
  }

  Path newest() {
    return files.get(files.size() - 1);
  }

  /** The units of {@code file} whose bytes differ in {@code damaged}. */
  List<Unit> touched(Path file, byte[] original, byte[] damaged) {
    List<Unit> touched = new ArrayList<>();
    for (Unit u : units) {
      if (!u.file().equals(file)) {
        continue;
      }
      for (int i = u.offset(); i < u.offset() + u.bytes(); i++) {
        if (original[i] != damaged[i]) {
          touched.add(u);
          break;
        }
      }
    }
    return touched;
  }

  /** True for the last record of the newest segment: the only one that can be a torn tail. */
  boolean isLastRecord(Unit u) {
    return u.equals(units.get(units.size() - 1)) && u.record() != null;
  }

  /** What replay must return once the {@code lost} units are gone and every other record is read. */
  RecordModel without(Collection<Unit> lost) {
    RecordModel model = new RecordModel();
    for (Unit u : units) {
      if (u.record() != null && !lost.contains(u)) {
        model.apply(u.record());
      }
    }
    return model;
  }
}
