package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client the other tests trust: each way a reply can be missing, short or extra is caught. */
class TestClientTest {
  private ServerSocket listener;
  private Socket server;

  @BeforeEach
  void listen() throws IOException {
    listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
  }

  @AfterEach
  void closeAll() throws IOException {
    if (server != null) {
      server.close();
    }
    listener.close();
  }

  private TestClient connect() throws IOException {
    TestClient c = TestClient.connect(listener.getLocalPort());
    server = listener.accept();
    return c;
  }

  private TestClient open(int readTimeoutMillis) throws IOException {
    TestClient c = TestClient.open(listener.getLocalPort(), readTimeoutMillis);
    server = listener.accept();
    return c;
  }

  private void serverSends(String text) throws IOException {
    OutputStream out = server.getOutputStream();
    out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  @Test
  void linesSplitAtCrLfOnlyAndKeepALoneCr() throws IOException {
    try (TestClient c = connect()) {
      serverSends("A\rB\r\n\r\nC\r\n");
      assertEquals("A\rB", c.readLine());
      assertEquals("", c.readLine());
      c.expect("C");
    }
  }

  @Test
  void aWrongLineFailsExpect() throws IOException {
    try (TestClient c = connect()) {
      serverSends("INSERTED 2\r\n");
      assertThrows(AssertionError.class, () -> c.expect("INSERTED 1"));
    }
  }

  @Test
  void aCloseInTheMiddleOfALineFailsAndShowsWhatCame() throws IOException {
    try (TestClient c = connect()) {
      serverSends("INSERT");
      server.close();
      AssertionError e = assertThrows(AssertionError.class, c::readLine);
      assertTrue(e.getMessage().contains("connection closed; read so far: INSERT"), e.getMessage());
    }
  }

  @Test
  void readLineOrNullIsNullOnlyForACloseBetweenLines() throws IOException {
    try (TestClient c = connect()) {
      serverSends("OK\r\n");
      server.close();
      assertEquals("OK", c.readLineOrNull());
      assertNull(c.readLineOrNull());
    }
  }

  @Test
  void aSilentServerFailsARead() throws IOException {
    try (TestClient c = connect()) {
      c.setReadTimeoutMillis(50);
      AssertionError e = assertThrows(AssertionError.class, c::readLine);
      assertTrue(e.getMessage().startsWith("no reply within 50 ms"), e.getMessage());
    }
  }

  @Test
  void aBodyMustEndWithCrLf() throws IOException {
    try (TestClient c = connect()) {
      serverSends("FOUND 1 3\r\nabcXY");
      String header = c.readLine();
      assertThrows(AssertionError.class, () -> c.readBody(header));
    }
  }

  @Test
  void aDocumentIsReadByItsAnnouncedLength() throws IOException {
    try (TestClient c = connect()) {
      serverSends("OK 26\r\n---\ncurrent-jobs-ready: 3\n\r\nOK 8\r\n---\nx: 1\n\r\n");
      assertEquals(Map.of("current-jobs-ready", "3"), c.readYaml());
      AssertionError e = assertThrows(AssertionError.class, c::readYaml);
      assertTrue(e.getMessage().contains("CR LF"), e.getMessage());
    }
  }

  @Test
  void aRowWithoutKeyAndValueFailsTheDocument() throws IOException {
    try (TestClient c = connect()) {
      serverSends("OK 13\r\n---\n- default\n\r\n");
      assertThrows(AssertionError.class, c::readYaml);
    }
  }

  @Test
  void aReplyIsItsLineAndTheBodyItAnnounces() throws IOException {
    try (TestClient c = connect()) {
      serverSends("RESERVED 7 4\r\nab\r\n\r\nDELETED\r\nOK 4\r\n---\n\r\n");
      assertEquals("RESERVED 7 4\r\nab\r\n\r\n", new String(c.readReply(), StandardCharsets.ISO_8859_1));
      assertEquals("DELETED\r\n", new String(c.readReply(), StandardCharsets.ISO_8859_1));
      assertEquals("OK 4\r\n---\n\r\n", new String(c.readReply(), StandardCharsets.ISO_8859_1));
    }
  }

  @Test
  void expectClosedFailsOnBytesOrASilence() throws IOException {
    try (TestClient c = connect()) {
      serverSends("X");
      assertThrows(AssertionError.class, c::expectClosed);
      c.setReadTimeoutMillis(50);
      assertThrows(AssertionError.class, c::expectClosed);
      server.close();
      c.expectClosed();
      assertTrue(c.isClosedByServer());
    }
  }

  @Test
  void expectNothingForFailsOnAByteOrAClose() throws IOException {
    try (TestClient c = connect()) {
      c.expectNothingFor(20);
      serverSends("X");
      assertThrows(AssertionError.class, () -> c.expectNothingFor(1000));
      server.close();
      assertThrows(AssertionError.class, () -> c.expectNothingFor(1000));
    }
  }

  @Test
  void aHarnessClientReportsACloseAsEofAndAFailedReadTakesNothing() throws IOException {
    try (TestClient c = open(1000)) {
      serverSends("RESERVED 1 5\r\nab");
      server.close();
      UncheckedIOException e = assertThrows(UncheckedIOException.class, c::readReply);
      assertInstanceOf(EOFException.class, e.getCause());
      assertArrayEquals("RESERVED 1 5\r\nab".getBytes(StandardCharsets.ISO_8859_1), c.readAvailable(1));
    }
  }

  @Test
  void aHarnessClientReportsASilenceAsATimeout() throws IOException {
    try (TestClient c = open(50)) {
      UncheckedIOException e = assertThrows(UncheckedIOException.class, c::readLine);
      assertInstanceOf(SocketTimeoutException.class, e.getCause());
      assertFalse(c.isClosedByServer());
    }
  }

  @Test
  void aPutIsItsLineAndBodyInOneWrite() throws IOException {
    try (TestClient c = connect()) {
      c.sendPut(5, 0, 60, new byte[] {'h', 'i'});
      byte[] got = server.getInputStream().readNBytes("put 5 0 60 2\r\nhi\r\n".length());
      assertEquals("put 5 0 60 2\r\nhi\r\n", new String(got, StandardCharsets.ISO_8859_1));
    }
  }
}
