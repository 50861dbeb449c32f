package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.config.TlsConfig;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import javax.net.ssl.X509KeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the TLS listener presents and whom it trusts: the certificate chain, the private key and the
 * optional client CA, read from their PEM files and checked once at start-up, so that a file that is
 * missing, unreadable, of the wrong kind, or a key that does not belong to the certificate fails
 * the start with one line instead of every handshake later. The launcher checks the cluster's
 * event-bus files ({@code cluster.tls.*}) the same way.
 */
public final class TlsCredentials {
  private static final Logger log = LoggerFactory.getLogger(TlsCredentials.class);
  /** TLS 1.0 and 1.1 are deprecated (RFC 8996); nothing older than 1.2 is offered. */
  public static final List<String> PROTOCOLS = List.of("TLSv1.2", "TLSv1.3");

  private final Buffer certChain;
  private final Buffer privateKey;
  private final Buffer clientCa;

  private TlsCredentials(Buffer certChain, Buffer privateKey, Buffer clientCa) {
    this.certChain = certChain;
    this.privateKey = privateKey;
    this.clientCa = clientCa;
  }

  /**
   * Reads and checks the files {@code tls} names. Blocking: call it off the event loop.
   *
   * @throws IllegalArgumentException with a one-line message naming the key and the file
   */
  public static TlsCredentials load(Vertx vertx, TlsConfig tls) {
    return load(vertx, "tls.", tls.cert(), tls.key(), "clientCa", tls.clientCa());
  }

  /**
   * Reads and checks a certificate chain, its key and an optional CA file named by the keys
   * {@code prefix + "cert"}, {@code prefix + "key"} and {@code prefix + caName}, which the messages
   * name. Blocking: call it off the event loop.
   *
   * @throws IllegalArgumentException with a one-line message naming the key and the file
   */
  public static TlsCredentials load(Vertx vertx, String prefix, Path certFile, Path keyFile, String caName,
      Path caFile) {
    String certKey = prefix + "cert";
    String keyKey = prefix + "key";
    Buffer cert = read(certKey, certFile);
    Buffer key = read(keyKey, keyFile);
    Buffer ca = caFile == null ? null : read(prefix + caName, caFile);
    // Certificates alone first, so that a fault in them is not blamed on the key.
    checkCertificates(vertx, certKey, certFile, cert);
    X509KeyManager pair;
    try {
      pair = (X509KeyManager) new PemKeyCertOptions().setCertValue(cert).setKeyValue(key)
          .getKeyManagerFactory(vertx).getKeyManagers()[0];
    } catch (Exception e) {
      throw unusable(keyKey, keyFile, "not a usable unencrypted PEM private key "
          + "(BEGIN PRIVATE KEY, BEGIN RSA PRIVATE KEY or BEGIN EC PRIVATE KEY)", e);
    }
    X509Certificate leaf = checkPair(pair, certKey, certFile, keyKey, keyFile);
    warnIfNotValidNow(leaf, certKey, certFile);
    if (ca != null) {
      checkCertificates(vertx, prefix + caName, caFile, ca);
    }
    return new TlsCredentials(cert, key, ca);
  }

  /** The certificate chain and its key, as the files held them when they were checked. */
  public PemKeyCertOptions keyCertOptions() {
    return new PemKeyCertOptions().setCertValue(certChain).setKeyValue(privateKey);
  }

  /** The CA certificates whose signature a peer's certificate needs, or null when none were given. */
  public PemTrustOptions trustOptions() {
    return clientCa == null ? null : new PemTrustOptions().addCertValue(clientCa);
  }

  /** The TLS listener's options: these credentials, TLS 1.2 and 1.3 only, client certificates if a CA was given. */
  NetServerOptions serverOptions(TlsConfig tls) {
    NetServerOptions options = new NetServerOptions()
        .setHost(tls.host())
        .setPort(tls.port())
        .setTcpNoDelay(true)
        .setSsl(true)
        .setKeyCertOptions(keyCertOptions())
        .setEnabledSecureTransportProtocols(new LinkedHashSet<>(PROTOCOLS));
    if (clientCa != null) {
      options.setTrustOptions(trustOptions()).setClientAuth(ClientAuth.REQUIRED);
    }
    return options;
  }

  private static Buffer read(String key, Path file) {
    try {
      return Buffer.buffer(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("config: '" + key + "' " + file + ": no such file");
    } catch (AccessDeniedException e) {
      throw new IllegalArgumentException("config: '" + key + "' " + file + ": permission denied");
    } catch (IOException e) {
      throw unusable(key, file, "cannot be read", e);
    }
  }

  private static void checkCertificates(Vertx vertx, String key, Path file, Buffer pem) {
    int count;
    try {
      count = new PemTrustOptions().addCertValue(pem).loadKeyStore(vertx).size();
    } catch (Exception e) {
      throw unusable(key, file, "not a PEM certificate file (BEGIN CERTIFICATE)", e);
    }
    if (count == 0) {
      throw new IllegalArgumentException("config: '" + key + "' " + file + ": no certificate in it");
    }
  }

  /** Proves the key belongs to the first certificate: Vert.x would accept any key and fail every handshake. */
  private static X509Certificate checkPair(X509KeyManager pair, String certKey, Path certFile, String keyKey,
      Path keyFile) {
    String alias = null;
    for (String keyType : new String[] {"RSA", "EC", "EdDSA", "Ed25519", "RSASSA-PSS", "DSA"}) {
      String[] aliases = pair.getServerAliases(keyType, null);
      if (aliases != null && aliases.length > 0) {
        alias = aliases[0];
        break;
      }
    }
    PrivateKey key = alias == null ? null : pair.getPrivateKey(alias);
    X509Certificate[] chain = alias == null ? null : pair.getCertificateChain(alias);
    if (key == null || chain == null || chain.length == 0) {
      throw new IllegalArgumentException("config: '" + keyKey + "' " + keyFile + ": no usable private key in it");
    }
    String algorithm = switch (key.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      case "Ed25519", "EdDSA" -> "Ed25519";
      default -> null;
    };
    boolean isMatch = true;
    if (algorithm != null) {
      try {
        byte[] probe = "vertx-beanstalkd".getBytes(StandardCharsets.US_ASCII);
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(probe);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(chain[0].getPublicKey());
        verifier.update(probe);
        isMatch = verifier.verify(signature);
      } catch (GeneralSecurityException e) {
        // A key of one kind and a certificate of another (RSA and EC) land here.
        isMatch = false;
      }
    }
    if (!isMatch) {
      throw new IllegalArgumentException("config: '" + keyKey + "' " + keyFile
          + " does not belong to the first certificate of '" + certKey + "' " + certFile);
    }
    return chain[0];
  }

  private static void warnIfNotValidNow(X509Certificate leaf, String certKey, Path file) {
    Date now = new Date();
    if (now.after(leaf.getNotAfter())) {
      log.warn("{} {} expired on {}: peers that check it will refuse the handshake", certKey, file,
          leaf.getNotAfter());
    } else if (now.before(leaf.getNotBefore())) {
      log.warn("{} {} is not valid before {}: peers that check it will refuse the handshake", certKey, file,
          leaf.getNotBefore());
    }
  }

  private static IllegalArgumentException unusable(String key, Path file, String what, Exception cause) {
    String reason = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    // The JDK's messages may carry the nested cause's class and span lines; the operator needs one line.
    reason = reason.lines().findFirst().orElse("").replaceFirst("^([a-z]+\\.)+[A-Za-z]*(Exception|Error): ", "");
    return new IllegalArgumentException("config: '" + key + "' " + file + ": " + what + ": " + reason);
  }
}
