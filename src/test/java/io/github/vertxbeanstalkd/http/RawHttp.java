package io.github.vertxbeanstalkd.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A keep-alive HTTP/1.1 connection that writes requests as raw bytes, so a path is sent exactly as
 * fuzzed (no client normalises or refuses it), and reads one response at a time.
 */
final class RawHttp implements AutoCloseable {
  /** One response; {@code status} -1 when the server closed the connection without one. */
  record Response(int status, Map<String, String> headers, byte[] body) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final int port;
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  RawHttp(int port) {
    this.port = port;
  }

  Response exchange(String method, byte[] target, Map<String, String> headers, byte[] body) throws IOException {
    if (socket == null) {
      socket = new Socket();
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout(10_000);
      in = socket.getInputStream();
      out = socket.getOutputStream();
    }
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    request.writeBytes((method + " ").getBytes(StandardCharsets.ISO_8859_1));
    request.writeBytes(target);
    StringBuilder head = new StringBuilder(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
    head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
    request.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    request.writeBytes(body);
    try {
      out.write(request.toByteArray());
      out.flush();
      // Netty's decoder takes the first word of the request line as the method, reading control
      // characters as spaces: "HEAD\u0001" is a HEAD, whose answer has no body.
      String[] words = method.replaceFirst("^[\\x00-\\x20]+", "").split("[\\x00-\\x20]+");
      Response r = read(words.length > 0 && words[0].equals("HEAD"));
      if (r.status() < 0 || "close".equalsIgnoreCase(r.header("connection"))) {
        close();
      }
      return r;
    } catch (java.net.SocketTimeoutException e) {
      close();
      throw new AssertionError("no answer within 10 s to " + escaped(method) + " "
          + escaped(new String(target, StandardCharsets.ISO_8859_1)) + " " + headers + ", body of " + body.length, e);
    } catch (IOException e) {
      close();
      return new Response(-1, Map.of(), new byte[0]);
    }
  }

  private Response read(boolean isHead) throws IOException {
    String statusLine = line();
    if (statusLine == null) {
      return new Response(-1, Map.of(), new byte[0]);
    }
    int status = Integer.parseInt(statusLine.split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (String h = line(); h != null && !h.isEmpty(); h = line()) {
      int colon = h.indexOf(':');
      headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (isHead || status == 204 || status == 304) {
      return new Response(status, headers, body.toByteArray());
    }
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0;
          size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
        body.writeBytes(in.readNBytes(size));
        line();
      }
      line();
    } else if (headers.containsKey("content-length")) {
      body.writeBytes(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
    }
    return new Response(status, headers, body.toByteArray());
  }

  private String line() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c = in.read(); c >= 0; c = in.read()) {
      if (c == '\n') {
        String s = b.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
      }
      b.write(c);
    }
    return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
  }

  static String escaped(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      b.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
    }
    return b.toString();
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing anyway
      }
      socket = null;
    }
  }
}
