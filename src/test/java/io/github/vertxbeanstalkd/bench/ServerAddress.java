package io.github.vertxbeanstalkd.bench;

/** A server to load, written host:port on the command line. */
public record ServerAddress(String host, int port) {
  public static ServerAddress parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("expected host:port, got " + text);
    }
    return new ServerAddress(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
