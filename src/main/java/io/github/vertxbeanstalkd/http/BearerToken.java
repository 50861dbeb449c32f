package io.github.vertxbeanstalkd.http;

import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.AuthenticationHandler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** The admin API's check of {@code Authorization: Bearer <http.token>}, refusing with 401 and a Bearer challenge. */
final class BearerToken implements AuthenticationHandler {
  private final byte[] expectedAuthorization;

  BearerToken(String token) {
    this.expectedAuthorization = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
  }

  // Our own rather than SimpleAuthenticationHandler: its base class lets a CORS preflight that names
  // Authorization through without the token, and here every method under /api/ needs it.
  @Override
  public void handle(RoutingContext ctx) {
    String given = ctx.request().getHeader("authorization");
    // Constant time, so the comparison does not tell how much of a guess was right.
    if (given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expectedAuthorization)) {
      ctx.next();
      return;
    }
    ctx.response().putHeader("www-authenticate", "Bearer");
    ctx.fail(401, new Refusal(401, "UNAUTHORIZED", "this server needs Authorization: Bearer <http.token>"));
  }
}
