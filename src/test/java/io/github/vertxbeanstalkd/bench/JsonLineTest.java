package io.github.vertxbeanstalkd.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bench's JSON lines: three decimals, null for what is not a number, keys in the order put. */
class JsonLineTest {
  @Test
  void numbersHaveThreeDecimalsAndNoExponent() {
    String line = new JsonLine()
        .number("small", 0.0005)
        .number("round", 2.5)
        .number("large", 12_345_678.9)
        .toString();

    assertEquals("{\"small\":0.001,\"round\":2.500,\"large\":12345678.900}", line);
  }

  @Test
  void notFiniteNumbersAreNull() {
    String line = new JsonLine().number("nan", Double.NaN).number("inf", Double.POSITIVE_INFINITY).toString();

    assertEquals("{\"nan\":null,\"inf\":null}", line);
  }

  @Test
  void keysKeepTheOrderTheyWerePutIn() {
    String line = new JsonLine().text("z", "last letter").count("a", 7).texts("m", List.of("x", "y")).toString();

    assertEquals("{\"z\":\"last letter\",\"a\":7,\"m\":[\"x\",\"y\"]}", line);
  }

  @Test
  void textWithQuotesAndNewlinesReadsBackUnchanged() throws Exception {
    String sample = "reply \"OUT_OF_MEMORY\"\r\n\\ after put\u0001";

    JsonNode read = new ObjectMapper().readTree(new JsonLine().texts("errorSamples", List.of(sample)).toString());

    assertEquals(sample, read.get("errorSamples").get(0).asText());
  }
}
