package io.github.vertxbeanstalkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages are the architecture (STYLE.md, "Layout"), so their graph is checked: read from the
 * server's sources, every reference from one of our packages to another (an import, or a qualified
 * name in code or Javadoc) is an arrow, and the arrows may not close a loop. The rules of the layout
 * that name packages are checked here too, so that a change that breaks one fails here, naming the
 * file and the class it reached for.
 */
class PackageGraphTest {
  private static final Path SOURCES = Path.of("src/main/java/io/github/vertxbeanstalkd");
  private static final String ROOT = "(root)";
  /** A reference to one of our classes: the package's segments (lower case), then the class. */
  private static final Pattern REFERENCE =
      Pattern.compile("\\bio\\.github\\.vertxbeanstalkd\\.((?:[a-z][a-z0-9_]*\\.)*)([A-Z]\\w*)");
  /** The fronts: each adapts one transport to the seam in {@code bus}, and none knows another. */
  private static final Set<String> FRONTS = Set.of("tcp", "api", "http");

  private static final Map<String, Map<String, Set<String>>> GRAPH = read();

  @Test
  void thePackagesCloseNoLoop() {
    List<List<String>> loops = loops(GRAPH);
    assertTrue(loops.isEmpty(), () -> "package loops: " + describe(GRAPH, loops));
  }

  @Test
  void theSeamImportsOnlyTheProtocol() {
    assertOnly("bus", Set.of("protocol"));
  }

  @Test
  void theProtocolImportsNothingOfOursAndTheConfigurationOnlyIt() {
    assertOnly("protocol", Set.of());
    // The config file's tube settings are the protocol's value, as the admin API's and the bus's are.
    assertOnly("config", Set.of("protocol"));
  }

  @Test
  void clusterRoutingImportsNothingOfOursButTheProtocol() {
    assertOnly("cluster", Set.of("protocol"));
  }

  @Test
  void theEventBusContractImportsNothingOfOurs() {
    assertOnly("contract", Set.of());
  }

  /**
   * Replication's parts point one way: election (the lock, the term, the CP seats) imports nothing
   * of ours but the binlog's way of replacing a small file durably; shipping and forwarding may use
   * election but not each other; only the wiring in
   * {@code replication} itself knows all three, and none of them reaches back into it.
   */
  @Test
  void replicationsPartsPointOneWay() {
    assertOnly("replication.election", Set.of("persistence"));
    assertNone("replication.shipping", Set.of("replication", "replication.forwarding"));
    assertNone("replication.forwarding", Set.of("replication", "replication.shipping"));
  }

  @Test
  void noFrontImportsAnotherFront() {
    for (String front : FRONTS) {
      Map<String, Set<String>> out = GRAPH.getOrDefault(front, Map.of());
      for (String other : FRONTS) {
        assertTrue(!out.containsKey(other), () -> front + " reaches into " + other + ": " + out.get(other));
      }
    }
  }

  /** The check itself can fail: a loop made by hand is found, and named. */
  @Test
  void aLoopIsFoundAndNamed() {
    Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
    graph.put("a", Map.of("b", Set.of("A1 -> b.B")));
    graph.put("b", Map.of("c", Set.of("B1 -> c.C")));
    graph.put("c", Map.of("a", Set.of("C1 -> a.A")));
    graph.put("d", Map.of("a", Set.of("D1 -> a.A")));
    List<List<String>> loops = loops(graph);
    assertEquals(List.of(List.of("a", "b", "c")), loops);
    assertTrue(describe(graph, loops).contains("c -> a (C1 -> a.A)"), describe(graph, loops));
  }

  private static void assertOnly(String from, Set<String> allowed) {
    Map<String, Set<String>> out = GRAPH.getOrDefault(from, Map.of());
    Map<String, Set<String>> extra = new TreeMap<>(out);
    extra.keySet().removeAll(allowed);
    assertTrue(extra.isEmpty(), () -> from + " may import only " + allowed + " of ours, but: " + extra);
  }

  private static void assertNone(String from, Set<String> forbidden) {
    Map<String, Set<String>> out = GRAPH.getOrDefault(from, Map.of());
    Map<String, Set<String>> found = new TreeMap<>(out);
    found.keySet().retainAll(forbidden);
    assertTrue(found.isEmpty(), () -> from + " may not import " + forbidden + ", but: " + found);
  }

  /** Package to the packages it references, each with the references ("File -> package.Class"). */
  private static Map<String, Map<String, Set<String>>> read() {
    Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String from = packageOf(SOURCES.relativize(file.getParent()).toString().replace('/', '.'));
        String text = Files.readString(file).replaceFirst("(?m)^package [\\w.]+;", "");
        Matcher m = REFERENCE.matcher(text);
        while (m.find()) {
          String to = packageOf(m.group(1).isEmpty() ? "" : m.group(1).substring(0, m.group(1).length() - 1));
          if (!to.equals(from)) {
            String name = file.getFileName().toString().replace(".java", "");
            graph.computeIfAbsent(from, k -> new TreeMap<>()).computeIfAbsent(to, k -> new TreeSet<>())
                .add(name + " -> " + (to.equals(ROOT) ? "" : to + ".") + m.group(2));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertTrue(graph.size() > 5, "read the server's sources from " + SOURCES.toAbsolutePath());
    return graph;
  }

  private static String packageOf(String relative) {
    return relative.isEmpty() ? ROOT : relative;
  }

  /** The strongly connected components of more than one package (Tarjan), each sorted, in order. */
  private static List<List<String>> loops(Map<String, Map<String, Set<String>>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    List<List<String>> loops = new ArrayList<>();
    for (String node : graph.keySet()) {
      if (!index.containsKey(node)) {
        connect(node, graph, index, low, stack, loops);
      }
    }
    loops.sort((a, b) -> a.get(0).compareTo(b.get(0)));
    return loops;
  }

  private static void connect(String node, Map<String, Map<String, Set<String>>> graph, Map<String, Integer> index,
      Map<String, Integer> low, Deque<String> stack, List<List<String>> loops) {
    index.put(node, index.size());
    low.put(node, index.get(node));
    stack.push(node);
    for (String next : graph.getOrDefault(node, Map.of()).keySet()) {
      if (!index.containsKey(next)) {
        connect(next, graph, index, low, stack, loops);
        low.put(node, Math.min(low.get(node), low.get(next)));
      } else if (stack.contains(next)) {
        low.put(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node).equals(index.get(node))) {
      List<String> component = new ArrayList<>();
      String member;
      do {
        member = stack.pop();
        component.add(member);
      } while (!member.equals(node));
      if (component.size() > 1) {
        component.sort(null);
        loops.add(component);
      }
    }
  }

  /** Each loop with the arrows inside it and the references that make them. */
  private static String describe(Map<String, Map<String, Set<String>>> graph, List<List<String>> loops) {
    StringBuilder text = new StringBuilder();
    for (List<String> loop : loops) {
      text.append("\n  ").append(loop).append(':');
      for (String from : loop) {
        Map<String, Set<String>> out = graph.getOrDefault(from, Map.of());
        for (String to : loop) {
          if (out.containsKey(to)) {
            text.append("\n    ").append(from).append(" -> ").append(to).append(" (")
                .append(String.join(", ", out.get(to))).append(')');
          }
        }
      }
    }
    return text.toString();
  }
}
