package io.github.vertxbeanstalkd.protocol;

/** Builds the small YAML documents of stats replies: {@code ---}, then one line per key or entry. */
public final class Yaml {
  private final StringBuilder text = new StringBuilder(256).append("---\n");

  public Yaml put(String key, String value) {
    text.append(key).append(": ").append(value).append('\n');
    return this;
  }

  public Yaml put(String key, long value) {
    text.append(key).append(": ").append(value).append('\n');
    return this;
  }

  /** A list entry: {@code - value}. */
  public Yaml item(String value) {
    text.append("- ").append(value).append('\n');
    return this;
  }

  public Reply.Document toReply() {
    return Reply.Document.of(text.toString());
  }

  @Override
  public String toString() {
    return text.toString();
  }
}
