package io.github.vertxbeanstalkd.config;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;

/**
 * The event-bus front (EVENTBUS.md): whether it is on, and its address. The address
 * is registered cluster-wide, so clustered Vert.x apps reach it too.
 *
 * @see <a href="{@docRoot}/../spec/EVENTBUS.html">EVENTBUS.md</a>
 */
public record EventBusConfig(boolean isEnabled, String address) {
  /** EVENTBUS.md: the default address. */
  public static final String DEFAULT_ADDRESS = "beanstalkd";
  static final String SECTION = "eventBus";
  static final Set<String> KEYS = Set.of("enabled", "address");
  static final Map<String, String> ENVIRONMENT = Map.of(
      "BEANSTALKD_EVENTBUS_ENABLED", "eventBus.enabled",
      "BEANSTALKD_EVENTBUS_ADDRESS", "eventBus.address");

  public static EventBusConfig defaults() {
    return new EventBusConfig(true, DEFAULT_ADDRESS);
  }

  static EventBusConfig fromJson(JsonObject json) {
    ConfigSection section = new ConfigSection(SECTION, KEYS, ENVIRONMENT, json);
    return new EventBusConfig(section.flag("enabled", true), section.text("address", DEFAULT_ADDRESS));
  }
}
