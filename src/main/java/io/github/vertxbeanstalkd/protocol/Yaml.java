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

  /**
   * The lines of a document this class built, without the leading {@code ---}: {@code key: value}
   * or {@code - item}. Tube names are ASCII, so ISO-8859-1 reads them exactly.
   */
  public static String[] lines(Reply.Document doc) {
    String text = new String(doc.yaml(), java.nio.charset.StandardCharsets.ISO_8859_1);
    String rest = text.substring(text.indexOf('\n') + 1);
    return rest.isEmpty() ? new String[0] : rest.split("\n");
  }

  @Override
  public String toString() {
    return text.toString();
  }
}
