package io.github.vertxbeanstalkd.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code listeners} list: its entries as written in the config file, and the errors naming what is wrong. */
class ListenerConfigTest {
  private static ServerConfig read(Object listeners) {
    return ServerConfig.fromJson(new JsonObject().put("host", "10.0.0.5").put("listeners", listeners));
  }

  private static String refused(Object listeners) {
    return assertThrows(IllegalArgumentException.class, () -> read(listeners)).getMessage();
  }

  @Test
  void noListenersByDefault() {
    assertEquals(List.of(), ServerConfig.fromJson(new JsonObject()).listeners());
  }

  @Test
  void tcpAddressesIpv6AndUnixSocketsAreRead() {
    ServerConfig c = read(new JsonArray()
        .add(new JsonObject().put("host", "[::1]").put("port", 11300))
        .add(new JsonObject().put("host", "::").put("port", 0))
        .add(new JsonObject().put("port", 11301))
        .add(new JsonObject().put("path", "/run/beanstalkd.sock")));
    assertEquals(List.of(ListenerConfig.tcp("::1", 11300), ListenerConfig.tcp("::", 0),
        ListenerConfig.tcp("10.0.0.5", 11301), ListenerConfig.unix(Path.of("/run/beanstalkd.sock"))), c.listeners());
    assertEquals("[::1]:11300", c.listeners().get(0).describe(11300));
    assertEquals("10.0.0.5:11301", c.listeners().get(2).describe(11301));
    assertEquals("unix:/run/beanstalkd.sock", c.listeners().get(3).describe(-1));
    // The short form's listener is still there.
    assertEquals(11300, c.port());
    assertTrue(c.isTcpEnabled());
  }

  @Test
  void aTlsListenerTakesTheCertificateOfTheTlsSectionWithoutATlsPort() {
    JsonObject json = new JsonObject().put("tls", new JsonObject().put("cert", "/etc/b/server.pem")
        .put("key", "/etc/b/server.key"))
        .put("listeners", new JsonArray().add(new JsonObject().put("path", "/run/b.sock").put("tls", true)));
    ServerConfig c = ServerConfig.fromJson(json);
    assertEquals(List.of(ListenerConfig.unix(Path.of("/run/b.sock")).withTls()), c.listeners());
    assertTrue(c.hasTlsListeners());
    assertEquals(false, c.tls().isEnabled(), "no TLS port of the short form");
    assertEquals("unix:/run/b.sock (TLS)", c.listeners().get(0).describe(-1));
  }

  @Test
  void aTlsListenerWithoutACertificateIsRefused() {
    assertEquals("config: a listener of 'listeners' has \"tls\": true; set 'tls.cert' and 'tls.key' to the "
        + "certificate chain and key it serves", refused(new JsonArray().add(new JsonObject().put("port", 1).put("tls", true))));
  }

  @Test
  void wrongEntriesAreNamed() {
    assertEquals("config: 'listeners' must be a list, got 11300", refused(11300));
    assertEquals("config: 'listeners[0]' must be an object such as {\"host\": \"::1\", \"port\": 11300} or "
        + "{\"path\": \"/run/beanstalkd.sock\"}, got :11300", refused(new JsonArray().add(":11300")));
    assertEquals("config: 'listeners[1].port' must be a port from 0 to 65535, got 70000",
        refused(new JsonArray().add(new JsonObject().put("port", 1)).add(new JsonObject().put("port", 70000))));
    assertEquals("config: 'listeners[0].port' must be a port from 0 to 65535 (or give a 'path' for a unix socket)",
        refused(new JsonArray().add(new JsonObject().put("host", "::1"))));
    assertEquals("config: unknown key 'listeners[0].adress'",
        refused(new JsonArray().add(new JsonObject().put("adress", "::1").put("port", 1))));
    assertEquals("config: 'listeners[0]' has a 'path' and a 'host' or 'port'; a unix socket has only a path",
        refused(new JsonArray().add(new JsonObject().put("path", "/run/b.sock").put("port", 1))));
    assertEquals("config: 'listeners[0].tls' must be true or false, got yes",
        refused(new JsonArray().add(new JsonObject().put("port", 1).put("tls", "yes"))));
  }
}
