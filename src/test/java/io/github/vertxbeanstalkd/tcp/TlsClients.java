package io.github.vertxbeanstalkd.tcp;

import io.github.vertxbeanstalkd.TestClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Principal;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Plain-JDK TLS clients for the tests: they trust the test CA of {@code src/test/resources/tls}
 * (and check that the server's certificate names 127.0.0.1), and may present a client certificate.
 */
final class TlsClients {
  private TlsClients() {}

  /** A file of {@code src/test/resources/tls}. */
  static Path file(String name) {
    try {
      return Path.of(TlsClients.class.getResource("/tls/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Trusts the test CA; presents {@code name}.pem and {@code name}.key when {@code name} is not null. */
  static SSLContext context(String name) {
    try {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("ca", certificates(file("ca.pem"))[0]);
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      KeyManager[] keyManagers = null;
      if (name != null) {
        keyManagers = new KeyManager[] {new Presenting(name, privateKey(file(name + ".key")),
            certificates(file(name + ".pem")))};
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers, tmf.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Connects and completes the handshake with only {@code protocols} enabled (all the JDK's defaults if none). */
  static SSLSocket handshake(SSLContext context, int port, String... protocols) throws IOException {
    SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket();
    socket.setSoTimeout(TestClient.READ_TIMEOUT_MILLIS);
    socket.connect(new InetSocketAddress("127.0.0.1", port), TestClient.READ_TIMEOUT_MILLIS);
    return handshake(socket, protocols);
  }

  /**
   * The same over {@code tcp}, a connected socket the caller closes: closing this one's output then
   * sends close_notify only, without the FIN the JDK adds otherwise, as stunnel and OpenSSL clients do.
   */
  static SSLSocket handshakeOver(Socket tcp, SSLContext context, String... protocols) throws IOException {
    tcp.setSoTimeout(TestClient.READ_TIMEOUT_MILLIS);
    return handshake((SSLSocket) context.getSocketFactory().createSocket(tcp, "127.0.0.1", tcp.getPort(), false),
        protocols);
  }

  private static SSLSocket handshake(SSLSocket socket, String... protocols) throws IOException {
    SSLParameters parameters = socket.getSSLParameters();
    // As a careful client would: the certificate must name the address connected to (SAN IP 127.0.0.1).
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    if (protocols.length > 0) {
      parameters.setProtocols(protocols);
    }
    socket.setSSLParameters(parameters);
    socket.startHandshake();
    return socket;
  }

  static TestClient connect(SSLContext context, int port) {
    try {
      return TestClient.over(handshake(context, port));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Presents its certificate whatever CAs the server names: the JDK's own key manager would send
   * none when the issuer is not among them, and the server would never see a foreign certificate.
   */
  private static final class Presenting extends X509ExtendedKeyManager {
    private final String alias;
    private final PrivateKey key;
    private final X509Certificate[] chain;

    Presenting(String alias, PrivateKey key, X509Certificate[] chain) {
      this.alias = alias;
      this.key = key;
      this.chain = chain;
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
      return alias;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
      return alias;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return new String[] {alias};
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String name) {
      return chain;
    }

    @Override
    public PrivateKey getPrivateKey(String name) {
      return key;
    }
  }

  private static X509Certificate[] certificates(Path pem) throws IOException, GeneralSecurityException {
    return CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(Files.readAllBytes(pem)))
        .toArray(new X509Certificate[0]);
  }

  /** An unencrypted PKCS#8 RSA key ("BEGIN PRIVATE KEY"). */
  private static PrivateKey privateKey(Path pem) throws IOException, GeneralSecurityException {
    String base64 = Files.readString(pem, StandardCharsets.US_ASCII)
        .replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
    return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
  }
}
