package io.github.vertxbeanstalkd.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.config.ReplicationConfig.WhenTooFewStandbys;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicationConfigTest {
  private static final JsonObject WITH_BINLOG = new JsonObject().put("binlog.dir", "/var/lib/bs");

  private static ReplicationConfig read(JsonObject json) {
    return ServerConfig.fromJson(json).replication();
  }

  @Test
  void withoutReplicationKeysTheNodeIsNotReplicatedAndTheDefaultsAreTheSpecs() {
    ReplicationConfig c = read(new JsonObject());
    assertEquals(new ReplicationConfig(false, "beanstalkd", 1, 1_000, WhenTooFewStandbys.SERVE), c);
    assertEquals(ReplicationConfig.off(), c);
    assertEquals(ReplicationConfig.off(), ServerConfig.defaults().replication());
    assertEquals(ReplicationConfig.off(), ServerConfig.forTests().replication());
    assertFalse(c.isAsynchronous());
  }

  @Test
  void theGroupIsTheEventBusAddressUnlessTold() {
    assertEquals("jobs", read(new JsonObject().put("eventBus.address", "jobs")).group());
    assertEquals("jobs", read(new JsonObject().put("BEANSTALKD_EVENTBUS_ADDRESS", "jobs")).group());
    assertEquals("orders", read(new JsonObject().put("eventBus.address", "jobs").put("replication.group", "orders"))
        .group());
  }

  @Test
  void flatKeysAreRead() {
    JsonObject json = WITH_BINLOG.copy().put("replication.enabled", true).put("replication.group", "g")
        .put("replication.minAcks", 2).put("replication.ackTimeoutMillis", 250)
        .put("replication.whenTooFewStandbys", "refuse");
    assertEquals(new ReplicationConfig(true, "g", 2, 250, WhenTooFewStandbys.REFUSE), read(json));
  }

  @Test
  void nestedKeysAreReadAndFlatOnesWin() {
    JsonObject json = WITH_BINLOG.copy().put("replication", new JsonObject().put("enabled", true)
            .put("group", "nested").put("minAcks", 0).put("ackTimeoutMillis", 5000).put("whenTooFewStandbys", "refuse"))
        .put("replication.group", "flat");
    ReplicationConfig c = read(json);
    assertEquals(new ReplicationConfig(true, "flat", 0, 5000, WhenTooFewStandbys.REFUSE), c);
    assertTrue(c.isAsynchronous());
  }

  @Test
  void environmentVariablesWinOverTheFile() {
    JsonObject json = WITH_BINLOG.copy()
        .put("replication", new JsonObject().put("enabled", false).put("group", "file").put("minAcks", 3)
            .put("ackTimeoutMillis", 10).put("whenTooFewStandbys", "serve"))
        .put("replication.minAcks", 4)
        .put("BEANSTALKD_REPLICATION_ENABLED", "true").put("BEANSTALKD_REPLICATION_GROUP", "env")
        .put("BEANSTALKD_REPLICATION_MIN_ACKS", "2").put("BEANSTALKD_REPLICATION_ACK_TIMEOUT_MILLIS", "750")
        .put("BEANSTALKD_REPLICATION_WHEN_TOO_FEW_STANDBYS", "refuse");
    assertEquals(new ReplicationConfig(true, "env", 2, 750, WhenTooFewStandbys.REFUSE), read(json));
    assertTrue(ServerConfig.environmentVariables().containsAll(List.of("BEANSTALKD_REPLICATION_ENABLED",
        "BEANSTALKD_REPLICATION_GROUP", "BEANSTALKD_REPLICATION_MIN_ACKS", "BEANSTALKD_REPLICATION_ACK_TIMEOUT_MILLIS",
        "BEANSTALKD_REPLICATION_WHEN_TOO_FEW_STANDBYS")));
  }

  @Test
  void aMemberNeedsABinlogDirOfItsOwn() {
    assertEquals("config: 'replication.enabled' is true but 'binlog.dir' is not set; each node of a group needs "
        + "a binlog of its own", rejected(new JsonObject().put("replication.enabled", true)));
    assertEquals("config: 'replication.enabled' is true but 'binlog.dir' is not set; each node of a group needs "
        + "a binlog of its own", rejected(new JsonObject().put("BEANSTALKD_REPLICATION_ENABLED", "true")));
    // Off, the other keys may be written ahead of time without a binlog.
    assertEquals(2, read(new JsonObject().put("replication.minAcks", 2)).minAcks());
    assertTrue(read(new JsonObject().put("BEANSTALKD_BINLOG_DIR", "/d").put("replication.enabled", true)).isEnabled());
  }

  @Test
  void badValuesAreRejectedInOneLineNamingTheKey() {
    assertEquals("config: 'replication.enabled' must be true or false, got yes",
        rejected(WITH_BINLOG.copy().put("replication.enabled", "yes")));
    assertEquals("config: 'replication.group' must be a non-empty string, got  ",
        rejected(new JsonObject().put("replication.group", " ")));
    assertEquals("config: 'replication.group' must be a non-empty string, got 7",
        rejected(new JsonObject().put("replication", new JsonObject().put("group", 7))));
    assertEquals("config: 'replication.minAcks' must be between 0 and 2147483647, got -1",
        rejected(new JsonObject().put("replication.minAcks", -1)));
    assertEquals("config: 'replication.minAcks' must be a whole number, got one",
        rejected(new JsonObject().put("BEANSTALKD_REPLICATION_MIN_ACKS", "one")));
    assertEquals("config: 'replication.ackTimeoutMillis' must be between 1 and 3600000, got 0",
        rejected(new JsonObject().put("replication.ackTimeoutMillis", 0)));
    assertEquals("config: 'replication.ackTimeoutMillis' must be a whole number, got 1.5",
        rejected(new JsonObject().put("replication.ackTimeoutMillis", 1.5)));
    assertEquals("config: 'replication.whenTooFewStandbys' must be \"serve\" or \"refuse\", got wait",
        rejected(new JsonObject().put("replication.whenTooFewStandbys", "wait")));
    assertEquals("config: 'replication.whenTooFewStandbys' must be \"serve\" or \"refuse\", got true",
        rejected(new JsonObject().put("replication", new JsonObject().put("whenTooFewStandbys", true))));
    assertEquals("config: unknown key 'replication.minAck'",
        rejected(new JsonObject().put("replication", new JsonObject().put("minAck", 1))));
    assertEquals("config: unknown key 'replication.mode'", rejected(new JsonObject().put("replication.mode", "sync")));
    assertEquals("config: 'replication' must be an object, got on", rejected(new JsonObject().put("replication", "on")));
  }

  @Test
  void embeddingBuildsTheSameValuesAndTheConstructorChecksThem() {
    ReplicationConfig c = ReplicationConfig.inGroup("g").withMinAcks(2).withAckTimeoutMillis(300)
        .withWhenTooFewStandbys(WhenTooFewStandbys.REFUSE);
    assertEquals(new ReplicationConfig(true, "g", 2, 300, WhenTooFewStandbys.REFUSE), c);
    assertEquals(c, ServerConfig.forTests().withReplication(c).replication());
    assertEquals("serve", WhenTooFewStandbys.SERVE.word());
    assertEquals("refuse", WhenTooFewStandbys.REFUSE.word());
    assertEquals("config: 'replication.minAcks' must be 0 or more, got -2",
        assertThrows(IllegalArgumentException.class, () -> c.withMinAcks(-2)).getMessage());
    assertEquals("config: 'replication.ackTimeoutMillis' must be between 1 and 3600000, got 0",
        assertThrows(IllegalArgumentException.class, () -> c.withAckTimeoutMillis(0)).getMessage());
  }

  private static String rejected(JsonObject json) {
    return assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromJson(json)).getMessage();
  }
}
