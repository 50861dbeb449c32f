package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven over W3C WebDriver, for a browser test class: started once,
 * or null with the reason when chromium or chromium-driver is missing (the tests then skip, unless
 * {@code BEANSTALKD_BROWSER_TESTS=required}, as in CI, where they fail).
 */
final class HeadlessBrowser implements AutoCloseable {
  static final Duration PATIENCE = Duration.ofSeconds(10);
  // A bound, not a wait: on a loaded two-core machine a cold page load was seen to take over 5 s.
  private static final Duration PAGE_LOAD = Duration.ofSeconds(30);
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final String REQUIRED_VARIABLE = "BEANSTALKD_BROWSER_TESTS";
  // No DevTools bindings are on the class path: Selenium's warning that none matches is noise.
  // Held here: JUL keeps loggers weakly.
  private static final Logger CDP_VERSION_LOG = Logger.getLogger("org.openqa.selenium.devtools.CdpVersionFinder");

  final ChromeDriver driver;
  private final ChromeDriverService service;

  private HeadlessBrowser(ChromeDriverService service, ChromeDriver driver) {
    this.service = service;
    this.driver = driver;
  }

  /** Why there is no browser here, or null when there is one. */
  static String whyNone() {
    for (Path program : new Path[] {CHROMIUM, CHROMEDRIVER}) {
      if (!Files.isExecutable(program)) {
        String why = program + " is missing (apt-get install chromium chromium-driver)";
        if ("required".equals(System.getenv(REQUIRED_VARIABLE))) {
          fail(REQUIRED_VARIABLE + "=required, but " + why);
        }
        return why;
      }
    }
    return null;
  }

  /** A browser with its profile in {@code profile}; call only when {@link #whyNone()} is null. */
  static HeadlessBrowser start(Path profile) {
    CDP_VERSION_LOG.setLevel(Level.SEVERE);
    // A driver service given its executable skips Selenium Manager: nothing is looked up or downloaded.
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort().build();
    ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
    // --no-sandbox because CI runs as root; the rest keep a browser on a closed network quiet and quick.
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--user-data-dir=" + profile);
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(PAGE_LOAD).scriptTimeout(PATIENCE);
    return new HeadlessBrowser(service, driver);
  }

  /** Waits until {@code condition} holds; the failure names what was awaited and what it saw. */
  void until(Supplier<String> what, Function<WebDriver, Boolean> condition) {
    new WebDriverWait(driver, PATIENCE)
        .ignoring(StaleElementReferenceException.class)
        .ignoring(NoSuchElementException.class)
        .withMessage(() -> "waited " + PATIENCE.toSeconds() + " s for " + what.get() + "; the page said: "
            + driver.findElement(By.id("status")).getText())
        .until(condition);
  }

  Object script(String js, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(js, args);
  }

  @Override
  public void close() {
    driver.quit();
    service.stop();
  }
}
