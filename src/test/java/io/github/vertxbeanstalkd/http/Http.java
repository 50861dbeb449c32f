package io.github.vertxbeanstalkd.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A blocking HTTP client for the tests of the HTTP front: GET, POST with a JSON body, and any other request. */
final class Http {
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final int port;
  private final String authorization;

  Http(int port, String authorization) {
    this.port = port;
    this.authorization = authorization;
  }

  Http(int port) {
    this(port, null);
  }

  Http withAuthorization(String value) {
    return new Http(port, value);
  }

  HttpResponse<String> get(String path) {
    return send(request(path).GET());
  }

  HttpResponse<String> post(String path, String json) {
    return send(request(path).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  HttpResponse<String> post(String path, String contentType, String body) {
    return send(request(path).header("content-type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  /** Any method, with {@code body} as it is (null: none), and header name-value pairs. */
  HttpResponse<String> send(String method, String path, HttpRequest.BodyPublisher body, String... headers) {
    HttpRequest.Builder b = request(path).method(method, body == null ? HttpRequest.BodyPublishers.noBody() : body);
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return send(b);
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10));
    if (authorization != null) {
      b.header("authorization", authorization);
    }
    return b;
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The value of the Prometheus sample whose name and labels are exactly {@code series}, or null. */
  static Double sample(String metrics, String series) {
    for (String line : metrics.split("\n")) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim());
      }
    }
    return null;
  }

  /** Every sample line of the series {@code name}, whatever its labels. */
  static List<String> lines(String metrics, String name) {
    List<String> found = new ArrayList<>();
    for (String line : metrics.split("\n")) {
      if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
        found.add(line);
      }
    }
    return found;
  }
}
