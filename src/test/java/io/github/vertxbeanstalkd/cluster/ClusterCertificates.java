package io.github.vertxbeanstalkd.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificate authorities and node certificates for one test, made in its directory by openssl with
 * the commands README's "Encrypted cluster traffic" gives: EC P-256 keys in PKCS#8, a CA that may
 * sign certificates only, and node certificates for both ends of a TLS connection.
 */
final class ClusterCertificates {
  private final Path dir;

  ClusterCertificates(Path dir) {
    this.dir = dir;
  }

  /** {@code name.pem} and {@code name.key}: a self-signed CA. */
  void ca(String name) throws IOException, InterruptedException {
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-keyout", name + ".key", "-out", name + ".pem", "-days", "3650", "-subj", "/CN=" + name,
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
  }

  /** {@code name.pem} and {@code name.key}: a node's certificate, signed by the CA {@code ca}. */
  void node(String name, String ca) throws IOException, InterruptedException {
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + name);
    // A node is the server of the connections it accepts and the client of those it opens.
    Files.writeString(dir.resolve("node.ext"), "extendedKeyUsage=serverAuth,clientAuth\n");
    openssl("x509", "-req", "-in", name + ".csr", "-CA", ca + ".pem", "-CAkey", ca + ".key", "-CAcreateserial",
        "-out", name + ".pem", "-days", "825", "-extfile", "node.ext");
  }

  Path cert(String name) {
    return dir.resolve(name + ".pem");
  }

  Path key(String name) {
    return dir.resolve(name + ".key");
  }

  private void openssl(String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of("openssl"));
    command.addAll(List.of(args));
    Process p;
    try {
      p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IllegalStateException("openssl is needed to make this test's certificates: " + e.getMessage(), e);
    }
    boolean isDone = p.waitFor(30, TimeUnit.SECONDS);
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!isDone) {
      p.destroyForcibly();
      throw new IllegalStateException("openssl took more than 30 s: " + command);
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException("openssl failed (" + p.exitValue() + "): " + command + "\n" + output);
    }
  }
}
