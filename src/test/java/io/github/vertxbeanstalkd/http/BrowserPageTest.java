package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.tcp.DeployedServerTest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Dimension;

/**
 * A test of the admin page in one headless Chromium per class, against a real server with its HTTP
 * front on a free port, in a desktop-sized window. Skips without Debian's chromium and
 * chromium-driver, unless {@code BEANSTALKD_BROWSER_TESTS=required} ({@link HeadlessBrowser}).
 */
abstract class BrowserPageTest extends DeployedServerTest {
  @TempDir
  static Path profile;
  static HeadlessBrowser browser;
  private static String whyNoBrowser;

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1"));
  }

  @BeforeAll
  static void startBrowser() {
    whyNoBrowser = HeadlessBrowser.whyNone();
    if (whyNoBrowser == null) {
      browser = HeadlessBrowser.start(profile);
    }
  }

  @AfterAll
  static void quitBrowser() {
    if (browser != null) {
      browser.close();
      browser = null;
    }
  }

  @BeforeEach
  void desktopWindow() {
    assumeTrue(browser != null, () -> "browser test skipped: " + whyNoBrowser);
    browser.driver.manage().window().setSize(new Dimension(1280, 900));
  }
}
