package io.github.vertxbeanstalkd.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * One JSON line of the bench's output (the lines starting with {@code {}, which the scripts in
 * src/test/scripts read): an object whose keys keep the order they were put in.
 */
final class JsonLine {
  /** Decimals of every fractional number: the microsecond figures keep nanosecond resolution. */
  private static final int DECIMALS = 3;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final ObjectNode object = MAPPER.createObjectNode();

  JsonLine text(String key, String value) {
    object.put(key, value);
    return this;
  }

  JsonLine count(String key, long value) {
    object.put(key, value);
    return this;
  }

  /**
   * A fractional number with three decimals; null when it is not finite (a median of no runs),
   * because Jackson would write NaN as a string, which the scripts' arithmetic cannot take.
   */
  JsonLine number(String key, double value) {
    if (!Double.isFinite(value)) {
      object.putNull(key);
      return this;
    }
    // A BigDecimal of a fixed scale rather than a double: Jackson would write 1.0E7 or 2.5.
    object.put(key, BigDecimal.valueOf(value).setScale(DECIMALS, RoundingMode.HALF_UP));
    return this;
  }

  JsonLine texts(String key, List<String> values) {
    ArrayNode array = object.putArray(key);
    values.forEach(array::add);
    return this;
  }

  @Override
  public String toString() {
    try {
      return MAPPER.writeValueAsString(object);
    } catch (JsonProcessingException e) {
      // A tree of strings and numbers always writes; this would be a bug in the tree.
      throw new UncheckedIOException(e);
    }
  }
}
