package io.github.vertxbeanstalkd.http;

import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** The start of a job body for the admin page: as text when it is printable UTF-8, else as hex. */
record BodyPreview(String encoding, String text, int bytes, boolean isTruncated) {
  static final int TEXT_BYTES = 1024;
  static final int HEX_BYTES = 256;

  static BodyPreview of(byte[] body) {
    return of(body, body.length);
  }

  /** The preview of a body of {@code bodyBytes} bytes that starts with {@code start} (at least {@link #TEXT_BYTES} of them, or all). */
  static BodyPreview of(byte[] start, int bodyBytes) {
    int end = Math.min(start.length, TEXT_BYTES);
    // A multi-byte character cut at the end of the preview is dropped, not taken as binary.
    for (int cut = 0; cut < 4 && end - cut > 0; cut++) {
      String text = printable(start, end - cut);
      if (text != null) {
        return new BodyPreview("text", text, bodyBytes, end - cut < bodyBytes);
      }
      if (end == bodyBytes) {
        break;
      }
    }
    if (bodyBytes == 0) {
      return new BodyPreview("text", "", 0, false);
    }
    int hexEnd = Math.min(start.length, HEX_BYTES);
    return new BodyPreview("hex", HexFormat.ofDelimiter(" ").formatHex(start, 0, hexEnd), bodyBytes,
        hexEnd < bodyBytes);
  }

  private static String printable(byte[] body, int end) {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body, 0, end)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t') {
        return null;
      }
    }
    return text;
  }

  JsonObject addTo(JsonObject job) {
    return job.put("bodyBytes", bytes).put("bodyEncoding", encoding).put("body", text).put("bodyTruncated", isTruncated);
  }
}
