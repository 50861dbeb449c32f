package io.github.vertxbeanstalkd.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documentation tree cannot rot: every relative link in README.md and src/site/markdown resolves
 * to a file, every anchor into a markdown file names one of its headings (as GitHub makes their
 * slugs), and every item of the site's menu is a page.
 */
class DocsLinksTest {

  private static final Path ROOT = Path.of("").toAbsolutePath();
  private static final Path PAGES = ROOT.resolve("src/site/markdown");

  /** An inline link or image, {@code [text](target "title")}: group 1 is the target. */
  private static final Pattern LINK =
      Pattern.compile("\\[(?:[^\\]\\\\]|\\\\.)*]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
  private static final Pattern CODE_SPAN = Pattern.compile("(`+).+?\\1");
  private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");
  private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)(?:\\s+#+)?\\s*$");
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
  /** What github-slugger removes: everything but letters, digits, marks, spaces, '-' and '_'. */
  private static final Pattern NOT_IN_SLUG = Pattern.compile("[^\\p{L}\\p{N}\\p{M} _-]");

  @Test
  void everyRelativeLinkInTheDocsResolves() throws IOException {
    List<Path> docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    try (Stream<Path> pages = Files.walk(PAGES)) {
      pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }

    assertEquals(List.of(), brokenLinks(ROOT, docs));
  }

  @Test
  void everyMenuItemOfTheSiteIsAPage() throws IOException {
    String site = Files.readString(ROOT.resolve("src/site/site.xml"));
    Matcher href = Pattern.compile("href=\"([^\"]+)\"").matcher(site);
    List<String> missing = new ArrayList<>();
    int items = 0;
    while (href.find()) {
      items++;
      String page = href.group(1).replaceFirst("\\.html$", ".md");
      if (!Files.isRegularFile(PAGES.resolve(page))) {
        missing.add(href.group(1));
      }
    }

    assertEquals(List.of(), missing);
    assertTrue(items > 0, "site.xml has no menu items");
  }

  @Test
  void aLinkToAMissingFileOrHeadingIsReported(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("other.md"), "# Other page\n\n## Kill -9, `now`\n");
    Path page = dir.resolve("page.md");
    Files.writeString(page, String.join("\n",
        "# A page",
        "[fine](other.md#kill--9-now) [here](#a-page) [web](https://example.com/x.md#y)",
        "[gone](missing.md) [no heading](other.md#nowhere) [none here](#other-page)",
        "```",
        "[in a code block](missing-too.md)",
        "```",
        "`[in a code span](missing-three.md)`"));

    assertEquals(
        List.of("page.md:3: missing.md (no such file)",
            "page.md:3: other.md#nowhere (no such heading)",
            "page.md:3: #other-page (no such heading)"),
        brokenLinks(dir, List.of(page)));
  }

  private static List<String> brokenLinks(Path root, List<Path> docs) {
    List<String> broken = new ArrayList<>();
    for (Path doc : docs) {
      List<String> lines = proseLines(doc);
      for (int i = 0; i < lines.size(); i++) {
        Matcher link = LINK.matcher(CODE_SPAN.matcher(lines.get(i)).replaceAll(""));
        while (link.find()) {
          String target = link.group(1);
          String problem = problem(doc, target);
          if (problem != null) {
            broken.add(root.relativize(doc) + ":" + (i + 1) + ": " + target + " (" + problem + ")");
          }
        }
      }
    }
    return broken;
  }

  /** Why {@code target}, linked from {@code doc}, does not resolve; null when it does. */
  private static String problem(Path doc, String target) {
    if (SCHEME.matcher(target).find()) {
      return null;
    }
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    Path resolved = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
    if (!Files.exists(resolved)) {
      return "no such file";
    }
    if (hash >= 0 && resolved.toString().endsWith(".md")
        && !headingSlugs(resolved).contains(target.substring(hash + 1))) {
      return "no such heading";
    }
    return null;
  }

  /** The anchors GitHub gives a markdown file's headings: github-slugger's, "-1" on for repeats. */
  private static Set<String> headingSlugs(Path doc) {
    Set<String> slugs = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : proseLines(doc)) {
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        String text = heading.group(1)
            .replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1")
            .replace("`", "")
            .replace("*", "");
        String slug = NOT_IN_SLUG.matcher(text.toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
        int repeats = seen.merge(slug, 1, Integer::sum) - 1;
        slugs.add(repeats == 0 ? slug : slug + "-" + repeats);
      }
    }
    return slugs;
  }

  /** The file's lines, with those of fenced code blocks blanked (their line numbers kept). */
  private static List<String> proseLines(Path doc) {
    List<String> lines;
    try {
      lines = Files.readAllLines(doc);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> prose = new ArrayList<>(lines.size());
    boolean inFence = false;
    for (String line : lines) {
      boolean fence = FENCE.matcher(line).find();
      prose.add(inFence || fence ? "" : line);
      if (fence) {
        inFence = !inFence;
      }
    }
    return prose;
  }
}
