package io.github.vertxbeanstalkd;

import io.vertx.core.json.jackson.JacksonCodec;
import io.vertx.core.json.jackson.JacksonFactory;
import io.vertx.core.spi.JsonFactory;
import io.vertx.core.spi.json.JsonCodec;

/**
 * Which JSON codec Vert.x's {@code JsonObject} and {@code JsonArray} use in this process, found by
 * Vert.x as a {@link JsonFactory} service. In the server started by the launcher ({@link Main}),
 * Vert.x's streaming codec on jackson-core: the server only ever turns JSON into maps, lists and
 * plain values and back, never into objects of its own classes. With jackson-databind on the class
 * path Vert.x would otherwise pick its databind codec, whose object mapper is built at the first
 * JSON the process reads, the config file: about 0.1 s of every start before the port opened
 * (src/site/markdown/start-up.md). Anywhere else (an app that embeds the server, the tests in
 * one JVM), Vert.x's own choice stands, so an app's {@code JsonObject.mapFrom} keeps working.
 */
public final class ServerJson implements JsonFactory {
  private static final JsonCodec STREAMING = new JacksonCodec();
  /** Set by the launcher before any JSON is read: this process is the server. */
  private static volatile boolean isServerProcess;

  /** Called by {@link Main} first thing, before Vert.x reads the command line's JSON or the config file. */
  static void useStreamingCodec() {
    isServerProcess = true;
  }

  /** Ahead of Vert.x's default factory (order {@code Integer.MAX_VALUE}); this one defers to it outside the server. */
  @Override
  public int order() {
    return 0;
  }

  @Override
  public JsonCodec codec() {
    return codecFor(isServerProcess);
  }

  /** The streaming codec in the server; Vert.x's default (the databind codec, with databind here) elsewhere. */
  static JsonCodec codecFor(boolean isServerProcess) {
    return isServerProcess ? STREAMING : JacksonFactory.CODEC;
  }
}
