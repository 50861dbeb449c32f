package io.github.vertxbeanstalkd.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/** Splits an API path into percent-decoded segments; a {@code +} stays a plus (tube names may hold one). */
final class ApiPath {
  private ApiPath() {}

  /** The decoded segments, or null when an escape or the UTF-8 under it is invalid. */
  static String[] segments(String path) {
    String[] raw = path.split("/", -1);
    String[] decoded = new String[raw.length];
    for (int i = 0; i < raw.length; i++) {
      decoded[i] = decode(raw[i]);
      if (decoded[i] == null) {
        return null;
      }
    }
    return decoded;
  }

  private static String decode(String segment) {
    if (segment.indexOf('%') < 0) {
      return segment;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (c != '%') {
        bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
        continue;
      }
      if (i + 2 >= segment.length()) {
        return null;
      }
      int hi = Character.digit(segment.charAt(i + 1), 16);
      int lo = Character.digit(segment.charAt(i + 2), 16);
      if (hi < 0 || lo < 0) {
        return null;
      }
      bytes.write(hi * 16 + lo);
      i += 2;
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
