package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartCacheTest {
  @TempDir
  Path tmp;

  @Test
  void java17PassesOverTheAotCacheOption() {
    assertNull(StartCache.of(List.of("-Xmx320m", "-XX:AOTCache=target/x.aot"), 17, "mixed mode, sharing"));
  }

  @Test
  void java17ReadsAnAppCdsArchive() throws Exception {
    Path archive = Files.write(tmp.resolve("x.jsa"), new byte[1]);
    StartCache cache = StartCache.of(List.of("-XX:SharedArchiveFile=" + archive), 17, "mixed mode, sharing");
    assertEquals("SharedArchiveFile", cache.option());
    assertTrue(cache.isInUse());
  }

  @Test
  void aMissingAppCdsArchiveIsNotInUseThoughTheJdksOwnClassesAreShared() {
    String missing = tmp.resolve("missing.jsa").toString();
    assertFalse(StartCache.of(List.of("-XX:SharedArchiveFile=" + missing), 17, "mixed mode, sharing").isInUse());
  }

  @Test
  void theLastCacheNamedIsTheOneTheJvmTakes() {
    StartCache cache = StartCache.of(List.of("-XX:AOTCache=first.aot", "-XX:AOTCache=second.aot"), 25, "mixed mode");
    assertEquals("second.aot", cache.path());
  }

  @Test
  void aCacheIsInUseWhenTheJvmSaysItShares() {
    assertTrue(StartCache.of(List.of("-XX:AOTCache=x.aot"), 25, "mixed mode, sharing").isInUse());
    assertFalse(StartCache.of(List.of("-XX:AOTCache=x.aot"), 25, "mixed mode").isInUse());
  }

  @Test
  void aMissingCacheIsSaidToBeMissing() {
    String missing = tmp.resolve("missing.aot").toString();
    assertTrue(StartCache.of(List.of("-XX:AOTCache=" + missing), 25, "mixed mode").describe()
        .startsWith("start cache " + missing + " not used: no such file; starting without it"));
  }

  @Test
  void noCacheNamedIsNone() {
    assertNull(StartCache.of(List.of("-Xmx320m"), 25, "mixed mode, sharing"));
  }
}
