package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.vertxbeanstalkd.BeanstalkServer;
import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.config.HttpConfig;
import io.github.vertxbeanstalkd.config.ServerConfig;
import io.github.vertxbeanstalkd.tcp.DeployedServerTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin page in a real headless Chromium against the real server: jobs put and buried over the
 * protocol show up in the page, and the page's buttons (by mouse and by keyboard) change them.
 * Without Debian's chromium and chromium-driver it skips, unless {@code BEANSTALKD_BROWSER_TESTS=required}
 * (as in CI), where it fails.
 */
class AdminPageBrowserTest extends DeployedServerTest {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final String REQUIRED_VARIABLE = "BEANSTALKD_BROWSER_TESTS";
  private static final Duration PATIENCE = Duration.ofSeconds(5);
  private static final String TUBE = "emails";

  // The page is driven over W3C WebDriver alone, so no DevTools bindings are on the class path and
  // Selenium's warning that none matches this Chromium is noise. Held here: JUL keeps loggers weakly.
  private static final Logger CDP_VERSION_LOG =
      Logger.getLogger("org.openqa.selenium.devtools.CdpVersionFinder");

  @TempDir
  static Path profile;
  private static ChromeDriverService driverService;
  private static ChromeDriver browser;
  private static String whyNoBrowser;

  @Override
  protected ServerConfig config() {
    return ServerConfig.forTests().withHttp(HttpConfig.onFreePort("127.0.0.1"));
  }

  @BeforeAll
  static void startBrowser() {
    for (Path program : new Path[] {CHROMIUM, CHROMEDRIVER}) {
      if (!Files.isExecutable(program)) {
        whyNoBrowser = program + " is missing (apt-get install chromium chromium-driver)";
        if ("required".equals(System.getenv(REQUIRED_VARIABLE))) {
          fail(REQUIRED_VARIABLE + "=required, but " + whyNoBrowser);
        }
        // Skipped test by test rather than here, so that the report counts them as skipped.
        return;
      }
    }
    CDP_VERSION_LOG.setLevel(Level.SEVERE);
    // A driver service given its executable skips Selenium Manager: nothing is looked up or downloaded.
    driverService = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort().build();
    ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
    // --no-sandbox because CI runs as root; the rest keep a browser on a closed network quiet and quick.
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--user-data-dir=" + profile);
    browser = new ChromeDriver(driverService, options);
    browser.manage().timeouts().pageLoadTimeout(PATIENCE).scriptTimeout(PATIENCE);
  }

  @AfterAll
  static void quitBrowser() {
    if (browser != null) {
      browser.quit();
    }
    if (driverService != null) {
      driverService.stop();
    }
  }

  @BeforeEach
  void desktopWindow() {
    assumeTrue(browser != null, () -> "browser test skipped: " + whyNoBrowser);
    browser.manage().window().setSize(new Dimension(1280, 900));
  }

  @Test
  void buriedJobsAreKickedFromThePageByMouseAndByKeyboard() {
    TestClient producer = connect();
    producer.send("use " + TUBE).expect("USING " + TUBE);
    for (int id = 1; id <= 3; id++) {
      producer.send("put 0 0 60 5", "job-" + id).expect("INSERTED " + id);
    }
    TestClient worker = connect();
    worker.send("watch " + TUBE).expect("WATCHING 2");
    worker.send("ignore default").expect("WATCHING 1");
    for (int id = 1; id <= 2; id++) {
      worker.send("reserve").expect("RESERVED " + id + " 5", "job-" + id);
      worker.send("bury " + id + " 0").expect("BURIED");
    }

    open(server);
    awaitCounts(TUBE, "1", "2");

    tabTo("Open tube " + TUBE);
    // The focus must outlive the page's refresh: one more job, and the refresh that shows it.
    producer.send("put 0 0 60 5", "job-4").expect("INSERTED 4");
    awaitCounts(TUBE, "2", "2");
    new Actions(browser).sendKeys(Keys.ENTER).perform();
    until("the tube panel opens", d -> d.findElement(By.id("tube-panel")).isDisplayed()
        && d.findElement(By.id("tube-heading")).getText().equals("Tube " + TUBE));

    // protocol.txt: peek-buried shows the next buried job a kick would take, the first buried: job 1.
    click(By.xpath("//article[@data-state='buried']//button[text()='Kick job 1']"));
    awaitCounts(TUBE, "3", "1");
    assertProtocolCounts(producer, 3, 1);

    WebElement bound = browser.findElement(By.id("kick-bound"));
    bound.clear();
    browser.findElement(By.id("kick")).click();
    until("an empty bound is refused", d -> d.findElement(By.id("status")).getText().contains("whole number"));
    assertEquals("kick-bound", browser.switchTo().activeElement().getDomAttribute("id"), "the focus is back on it");
    bound.sendKeys("5");
    new Actions(browser).sendKeys(Keys.TAB).perform();
    assertEquals("kick", browser.switchTo().activeElement().getDomAttribute("id"), "Tab from the bound reaches Kick");
    new Actions(browser).sendKeys(Keys.ENTER).perform();
    awaitCounts(TUBE, "4", "0");
    assertProtocolCounts(producer, 4, 0);
    until("the buried peek is empty",
        d -> d.findElement(By.cssSelector("article[data-state='buried'] .job")).getText().equals("No buried job."));
  }

  @Test
  void theFlushButtonAsksFirstAndFlushesOnlyOnceConfirmed() {
    TestClient producer = connect();
    producer.send("use " + TUBE).expect("USING " + TUBE);
    for (int id = 1; id <= 3; id++) {
      producer.send("put 0 0 60 5", "job-" + id).expect("INSERTED " + id);
    }
    producer.send("reserve-job 3").expect("RESERVED 3 5", "job-3");
    producer.send("bury 3 0").expect("BURIED");

    open(server);
    awaitCounts(TUBE, "2", "1");
    click(By.cssSelector("#tubes tr[data-tube='" + TUBE + "'] button"));
    until("the tube panel opens", d -> d.findElement(By.id("tube-panel")).isDisplayed());

    new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("flush-state"))).selectByValue("ready");
    browser.findElement(By.id("flush")).click();
    org.openqa.selenium.Alert asked = new WebDriverWait(browser, PATIENCE)
        .until(org.openqa.selenium.support.ui.ExpectedConditions.alertIsPresent());
    assertTrue(asked.getText().contains("ready jobs of tube " + TUBE), asked.getText());
    asked.dismiss();
    assertProtocolCounts(producer, 2, 1);

    browser.findElement(By.id("flush")).click();
    new WebDriverWait(browser, PATIENCE).until(org.openqa.selenium.support.ui.ExpectedConditions.alertIsPresent())
        .accept();
    until("the page says how many went", d -> d.findElement(By.id("status")).getText().contains("Flushed 2 job(s)"));
    awaitCounts(TUBE, "0", "1");
    assertProtocolCounts(producer, 0, 1);
  }

  @Test
  void onAPhoneThePageDoesNotScrollSideways() {
    // A tube name of 200 characters, the protocol's longest, with no place to break a line.
    String longTube = "t".repeat(200);
    TestClient producer = connect();
    producer.send("use " + longTube).expect("USING " + longTube);
    producer.send("put 0 0 60 5", "hello").expect("INSERTED 1");
    browser.manage().window().setSize(new Dimension(390, 844));

    open(server);
    awaitCounts(longTube, "1", "0");
    click(By.cssSelector("#tubes tr[data-tube='" + longTube + "'] button"));
    until("the tube panel opens", d -> d.findElement(By.id("tube-panel")).isDisplayed());
    until("the ready peek shows the job", d -> d.findElement(By.cssSelector("article[data-state='ready'] pre"))
        .getText().equals("hello"));

    long viewportWidth = (Long) script("return document.documentElement.clientWidth");
    long pageWidth = (Long) script("return document.documentElement.scrollWidth");
    assertTrue(viewportWidth <= 400, "the window is phone-sized, " + viewportWidth + " px wide");
    assertTrue(pageWidth <= viewportWidth, "the page is " + pageWidth + " px wide in a " + viewportWidth
        + " px viewport; widest: " + script(WIDEST_ELEMENT, viewportWidth));
  }

  @Test
  void withATokenThePageAsksForItAndThenShowsTheCounts() {
    String token = "s3cret-admin-token";
    BeanstalkServer guarded = await(BeanstalkServer.deploy(vertx,
        config().withHttp(HttpConfig.onFreePort("127.0.0.1").withToken(token))));
    try (TestClient producer = TestClient.connect(guarded.port())) {
      producer.send("use " + TUBE).expect("USING " + TUBE);
      producer.send("put 0 0 60 5", "hello").expect("INSERTED 1");
    }

    open(guarded);
    until("the token field appears", d -> d.findElement(By.id("token")).isDisplayed());
    WebElement status = browser.findElement(By.id("status"));
    assertTrue(status.getText().contains("needs its API token"), "the status asks for the token: " + status.getText());
    assertEquals("token", browser.switchTo().activeElement().getDomAttribute("id"), "the token field has the focus");
    assertTrue(browser.findElements(By.cssSelector("#tubes tbody tr")).isEmpty(), "no tubes shown without it");

    WebElement field = browser.findElement(By.id("token"));
    field.sendKeys("a-wrong-guess", Keys.ENTER);
    until("the page says the token was refused", d -> d.findElement(By.id("status")).getText().contains("refused"));
    field.clear();
    field.sendKeys(token, Keys.ENTER);
    awaitCounts(TUBE, "1", "0");
  }

  private static void open(BeanstalkServer target) {
    browser.get("http://127.0.0.1:" + target.httpPort() + "/");
  }

  /** Waits until the tube's row shows these ready and buried counts. */
  private static void awaitCounts(String tube, String ready, String buried) {
    String[] seen = {"no row for the tube"};
    until(() -> "tube " + tube + " to show ready/buried " + ready + "/" + buried + "; saw " + seen[0], d -> {
      // By attribute value rather than a CSS selector, so that any tube name matches itself.
      for (WebElement row : d.findElements(By.cssSelector("#tubes tbody tr"))) {
        if (tube.equals(row.getDomAttribute("data-tube"))) {
          seen[0] = row.findElement(By.cssSelector("[data-count='ready']")).getText() + "/"
              + row.findElement(By.cssSelector("[data-count='buried']")).getText();
          return seen[0].equals(ready + "/" + buried);
        }
      }
      return false;
    });
  }

  /** Presses Tab until {@code label} (an aria-label or a button's text) has the focus. */
  private static void tabTo(String label) {
    for (int presses = 0; presses < 40; presses++) {
      new Actions(browser).sendKeys(Keys.TAB).perform();
      WebElement focused = browser.switchTo().activeElement();
      if (label.equals(focused.getDomAttribute("aria-label")) || label.equals(focused.getText())) {
        return;
      }
    }
    fail("40 presses of Tab never reached " + label);
  }

  /** Clicks the element, finding it again if the page's refresh replaced it in between. */
  private static void click(By locator) {
    until(() -> "something to click at " + locator, d -> {
      d.findElement(locator).click();
      return true;
    });
  }

  private static void until(String what, Function<WebDriver, Boolean> condition) {
    until(() -> what, condition);
  }

  private static void until(Supplier<String> what, Function<WebDriver, Boolean> condition) {
    new WebDriverWait(browser, PATIENCE)
        .ignoring(StaleElementReferenceException.class)
        .ignoring(NoSuchElementException.class)
        .withMessage(() -> "waited " + PATIENCE.toSeconds() + " s for " + what.get() + "; the page said: "
            + browser.findElement(By.id("status")).getText())
        .until(condition);
  }

  private static void assertProtocolCounts(TestClient client, int ready, int buried) {
    Map<String, String> stats = client.stats("stats-tube " + TUBE);
    assertEquals(String.valueOf(ready), stats.get("current-jobs-ready"), "stats-tube current-jobs-ready");
    assertEquals(String.valueOf(buried), stats.get("current-jobs-buried"), "stats-tube current-jobs-buried");
  }

  private static Object script(String js, Object... args) {
    return ((JavascriptExecutor) browser).executeScript(js, args);
  }

  /** For the failure message: which element sticks out of the viewport, outside the scrolling boxes. */
  private static final String WIDEST_ELEMENT = """
      let widest = null;
      for (const e of document.querySelectorAll('body *')) {
        if (e.closest('.scroll')) continue;
        const box = e.getBoundingClientRect();
        const right = box.left + Math.max(box.width, e.scrollWidth);
        if (right > arguments[0] && (!widest || right >= widest.right)) {
          widest = { right, tag: e.tagName, id: e.id, cls: e.className };
        }
      }
      return JSON.stringify(widest);
      """;
}
