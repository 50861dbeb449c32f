package io.github.vertxbeanstalkd.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.TestClient;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The tube panel's job list in a real headless Chromium against the real server: pages with next
 * and previous, the body filter, and each job's peek, kick and delete, checked over the protocol.
 * Skips without Debian's chromium and chromium-driver, unless {@code BEANSTALKD_BROWSER_TESTS=required}.
 */
class JobListPageBrowserTest extends BrowserPageTest {
  private static final String TUBE = "orders";

  @Test
  void theListPagesFiltersAndActsOnJobs() {
    TestClient producer = connect();
    producer.send("use " + TUBE).expect("USING " + TUBE);
    for (int id = 1; id <= 25; id++) {
      String body = "order-" + id;
      // Priority 1 for all but job 25, priority 0: it is served first, so it is listed first.
      producer.send("put " + (id == 25 ? 0 : 1) + " 0 60 " + body.length(), body).expect("INSERTED " + id);
    }
    browser.driver.get("http://127.0.0.1:" + server.httpPort() + "/");
    click(By.cssSelector("button[aria-label='Open tube " + TUBE + "']"));

    awaitRows("the first page", ids(25, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19));
    assertEquals("false", browser.driver.findElement(By.id("jobs-next")).getDomProperty("disabled"));
    assertEquals("true", browser.driver.findElement(By.id("jobs-previous")).getDomProperty("disabled"));
    click(By.id("jobs-next"));
    awaitRows("the second page", ids(20, 21, 22, 23, 24));
    until("Next is off at the end", d -> "true".equals(d.findElement(By.id("jobs-next")).getDomProperty("disabled")));
    click(By.id("jobs-previous"));
    awaitRows("the first page again", ids(25, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19));

    WebElement filter = browser.driver.findElement(By.id("job-filter"));
    filter.sendKeys("order-2");
    click(By.cssSelector("#job-list-form button[type='submit']"));
    awaitRows("the jobs whose body holds order-2", ids(25, 2, 20, 21, 22, 23, 24));

    click(By.cssSelector("button[aria-label='Peek job 21']"));
    until("the peek shows job 21's body", d -> d.findElement(By.cssSelector("#job-peek pre")).getText()
        .equals("order-21") && d.findElement(By.id("job-peek-heading")).getText().equals("Job 21"));

    click(By.cssSelector("button[aria-label='Delete job 22']"));
    acceptConfirm();
    awaitRows("the list without job 22", ids(25, 2, 20, 21, 23, 24));
    producer.send("peek 22").expect("NOT_FOUND");

    TestClient worker = connect();
    worker.send("watch " + TUBE).expect("WATCHING 2");
    worker.send("reserve-job 23").expect("RESERVED 23 8", "order-23");
    worker.send("bury 23 5").expect("BURIED");
    filter.clear();
    new Select(browser.driver.findElement(By.id("job-state"))).selectByValue("buried");
    awaitRows("the buried list", ids(23));
    click(By.cssSelector("button[aria-label='Kick job 23']"));
    awaitRows("an empty buried list", ids());
    until("the list says so", d -> d.findElement(By.id("job-list-status")).getText().startsWith("No buried job"));
    assertEquals("ready", producer.stats("stats-job 23").get("state"));
  }

  private static List<String> ids(int... ids) {
    List<String> list = new ArrayList<>();
    for (int id : ids) {
      list.add(String.valueOf(id));
    }
    return list;
  }

  private static void awaitRows(String what, List<String> expected) {
    List<String> seen = new ArrayList<>();
    until(() -> what + ": rows " + expected + ", saw " + seen, d -> {
      seen.clear();
      for (WebElement row : d.findElements(By.cssSelector("#jobs tbody tr"))) {
        seen.add(row.getDomAttribute("data-job"));
      }
      return seen.equals(expected);
    });
  }

  private static void acceptConfirm() {
    until(() -> "the confirmation", d -> {
      try {
        d.switchTo().alert().accept();
        return true;
      } catch (NoAlertPresentException notYet) {
        return false;
      }
    });
  }

  private static void click(By locator) {
    until(() -> "something to click at " + locator, d -> {
      d.findElement(locator).click();
      return true;
    });
  }

  private static void until(String what, Function<WebDriver, Boolean> condition) {
    browser.until(() -> what, condition);
  }

  private static void until(java.util.function.Supplier<String> what, Function<WebDriver, Boolean> condition) {
    browser.until(what, condition);
  }
}
