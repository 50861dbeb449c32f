package io.github.vertxbeanstalkd.bus;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;

/** Hands an immutable object across the event bus by reference; it never leaves the JVM. */
public final class LocalCodec<T> implements MessageCodec<T, T> {
  private final String name;

  private LocalCodec(Class<T> type) {
    this.name = "local:" + type.getName();
  }

  /** Registers the codecs of every message type the engine and its clients exchange. */
  public static void registerAll(Vertx vertx) {
    for (Class<?> request : EngineRequest.class.getPermittedSubclasses()) {
      register(vertx, request);
    }
    register(vertx, EngineRequest.Answer.class);
    register(vertx, EngineReply.class);
    register(vertx, EngineReplies.class);
    register(vertx, EngineSnapshot.class);
    register(vertx, TubeSettingsAnswer.class);
    register(vertx, JobPage.class);
  }

  /** Registers the local codec of one more message type (a second server in one Vert.x shares it). */
  public static <T> void register(Vertx vertx, Class<T> type) {
    try {
      vertx.eventBus().registerDefaultCodec(type, new LocalCodec<>(type));
    } catch (IllegalStateException alreadyRegistered) {
      // A second server deployed on the same Vert.x instance shares the codecs.
    }
  }

  @Override
  public void encodeToWire(Buffer buffer, T value) {
    throw new UnsupportedOperationException(name + " is local-only");
  }

  @Override
  public T decodeFromWire(int pos, Buffer buffer) {
    throw new UnsupportedOperationException(name + " is local-only");
  }

  @Override
  public T transform(T value) {
    return value;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }
}
