package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.vertxbeanstalkd.TestClient;
import io.github.vertxbeanstalkd.cluster.GroupMembers;
import io.github.vertxbeanstalkd.cluster.GroupState;
import io.github.vertxbeanstalkd.cluster.GroupStatus;
import io.github.vertxbeanstalkd.config.HttpConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The admin page's dashboard in a real headless Chromium against the real server: its charts are
 * drawn, their numbers follow jobs put, reserved and deleted over the protocol, in total and per
 * tube; a node of a replication group lists the group's nodes; the raw counters are folded away.
 */
class DashboardBrowserTest extends BrowserPageTest {
  private static final String TUBE = "emails";
  /** The put line's colour in dashboard.js, as the canvas holds it. */
  private static final int[] PUT_RGB = {0x1a, 0x73, 0xe8};

  @Test
  void chartsAreDrawnAndTheirNumbersFollowPutsReservesAndDeletes() {
    open(server.httpPort());
    until("the first sample and both charts", () -> samples() >= 1
        && canvasWidth("#rates-chart") > 0 && canvasWidth("#jobs-chart") > 0);
    assertFalse(browser.driver.findElement(By.id("nodes-panel")).isDisplayed(), "no group, no nodes table");
    assertEquals(0, putPixels(), "nothing put yet: no put line above zero");

    TestClient producer = connect();
    producer.send("use " + TUBE).expect("USING " + TUBE);
    for (int id = 1; id <= 3; id++) {
      producer.send("put 0 0 60 5", "job-" + id).expect("INSERTED " + id);
    }
    producer.send("use default").expect("USING default");
    producer.send("put 0 0 60 5", "job-4").expect("INSERTED 4");
    producer.send("put 0 0 60 5", "job-5").expect("INSERTED 5");
    TestClient worker = connect();
    worker.send("reserve").expect("RESERVED 4 5", "job-4");
    worker.send("delete 4").expect("DELETED");

    until(() -> "ready 4 and put, reserve and delete rates above 0; saw " + nowTable(), () ->
        "4".equals(cell("ready", "now")) && isAboveZero(cell("puts", "peak"))
            && isAboveZero(cell("reserves", "peak")) && isAboveZero(cell("deletes", "peak")));
    until("the put line drawn above zero", () -> putPixels() > 0);

    new Select(browser.driver.findElement(By.id("dashboard-tube"))).selectByValue(TUBE);
    until(() -> "tube " + TUBE + " alone: ready 3, puts above 0, no deletes; saw " + nowTable(), () ->
        "3".equals(cell("ready", "now")) && isAboveZero(cell("puts", "peak")) && "0.0".equals(cell("deletes", "peak")));
  }

  @Test
  void theRawCountersAreFoldedAwayUntilAskedFor() {
    open(server.httpPort());
    WebElement stats = browser.driver.findElement(By.id("stats"));
    until("the counters loaded", () -> !stats.findElements(By.tagName("tr")).isEmpty());
    assertFalse(stats.isDisplayed(), "the stats table starts folded away");
    browser.driver.findElement(By.cssSelector("#stats-details summary")).click();
    until("the stats table unfolds", () -> stats.isDisplayed() && stats.getText().contains("cmd-put"));
  }

  @Test
  void inAGroupThePageListsItsNodesWithRoleTermAndLag() {
    // Two members on this Vert.x's event bus: the announcements travel as between nodes of a cluster.
    GroupStatus primary = new GroupStatus();
    primary.set(new GroupState(GroupState.PRIMARY, 4, 1, false, 0, true, 1, true));
    GroupStatus standby = new GroupStatus();
    standby.set(new GroupState(GroupState.STANDBY, 4, 0, false, 120, true, 0, true));
    GroupMembers members = new GroupMembers("g1", primary, () -> "127.0.0.1:11300");
    await(vertx.deployVerticle(members));
    await(vertx.deployVerticle(new GroupMembers("g1", standby, () -> "127.0.0.1:11301")));
    Readiness readiness = new Readiness();
    readiness.serving(List.of("127.0.0.1:11300"));
    HttpFrontVerticle page = new HttpFrontVerticle(HttpConfig.onFreePort("127.0.0.1"), server.engineAddress(),
        readiness, null, primary, members);
    await(vertx.deployVerticle(page));

    open(page.actualPort());
    until(() -> "two nodes; saw " + text("#nodes tbody"), () -> browser.driver.findElement(By.id("nodes-panel"))
        .isDisplayed() && browser.driver.findElements(By.cssSelector("#nodes tbody tr")).size() == 2);
    List<WebElement> rows = browser.driver.findElements(By.cssSelector("#nodes tbody tr"));
    assertEquals(List.of("primary", "4", "–", "127.0.0.1:11300"), cells(rows.get(0)));
    assertTrue(rows.get(0).getText().contains("(this node)"), rows.get(0).getText());
    assertEquals(List.of("standby", "4", "120", "127.0.0.1:11301"), cells(rows.get(1)));
  }

  private static void open(int httpPort) {
    browser.driver.get("http://127.0.0.1:" + httpPort + "/");
  }

  private static void until(String what, java.util.function.BooleanSupplier condition) {
    browser.until(() -> what, d -> condition.getAsBoolean());
  }

  private static void until(java.util.function.Supplier<String> what, java.util.function.BooleanSupplier condition) {
    browser.until(what, d -> condition.getAsBoolean());
  }

  private static long samples() {
    String n = browser.driver.findElement(By.id("dashboard")).getDomAttribute("data-samples");
    return n == null ? 0 : Long.parseLong(n);
  }

  private static long canvasWidth(String figure) {
    Object width = browser.script("const c = document.querySelector(arguments[0] + ' canvas');"
        + " return c ? c.width : 0;", figure);
    return ((Number) width).longValue();
  }

  /** Pixels of the rates chart in the put line's colour. */
  private static long putPixels() {
    Object n = browser.script("""
        const c = document.querySelector('#rates-chart canvas');
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < px.length; i += 4) {
          if (Math.abs(px[i] - arguments[0]) < 8 && Math.abs(px[i + 1] - arguments[1]) < 8
              && Math.abs(px[i + 2] - arguments[2]) < 8 && px[i + 3] > 200) n++;
        }
        return n;
        """, PUT_RGB[0], PUT_RGB[1], PUT_RGB[2]);
    return ((Number) n).longValue();
  }

  /** The dashboard's "now" or "peak" figure of a series (puts, reserves, ready...). */
  private static String cell(String series, String column) {
    return browser.driver.findElement(By.cssSelector("#dashboard-now tr[data-series='" + series + "'] td[data-"
        + column + "]")).getText();
  }

  private static boolean isAboveZero(String figure) {
    try {
      return Double.parseDouble(figure) > 0;
    } catch (NumberFormatException dash) {
      return false;
    }
  }

  private static String nowTable() {
    return text("#dashboard-now tbody");
  }

  private static String text(String selector) {
    return browser.driver.findElement(By.cssSelector(selector)).getText().replace('\n', ';');
  }

  private static List<String> cells(WebElement row) {
    return row.findElements(By.tagName("td")).stream().map(WebElement::getText).toList();
  }
}
