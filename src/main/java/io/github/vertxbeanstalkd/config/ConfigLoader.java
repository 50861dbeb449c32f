package io.github.vertxbeanstalkd.config;

import io.vertx.config.ConfigRetriever;
import io.vertx.config.ConfigRetrieverOptions;
import io.vertx.config.ConfigStoreOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Merges built-in defaults, the launcher's {@code -conf} JSON and the environment, in that order. */
public final class ConfigLoader {
  private ConfigLoader() {}

  public static Future<ServerConfig> load(Vertx vertx, JsonObject launcherConfig) {
    JsonArray envKeys = new JsonArray();
    ServerConfig.environmentVariables().forEach(envKeys::add);
    ConfigRetriever retriever = ConfigRetriever.create(vertx, new ConfigRetrieverOptions()
        .setScanPeriod(0)
        .addStore(new ConfigStoreOptions().setType("json").setConfig(ServerConfig.defaults().toJson()))
        .addStore(new ConfigStoreOptions().setType("json").setConfig(launcherConfig))
        .addStore(new ConfigStoreOptions().setType("env")
            .setConfig(new JsonObject().put("keys", envKeys).put("raw-data", true))));
    return retriever.getConfig()
        .eventually(() -> {
          retriever.close();
          return Future.succeededFuture();
        })
        .compose(json -> {
          try {
            return Future.succeededFuture(ServerConfig.fromJson(json));
          } catch (IllegalArgumentException e) {
            // No stack trace: the message names the key, and that is all an operator needs.
            return Future.failedFuture(new VertxException(e.getMessage(), true));
          }
        });
  }
}
