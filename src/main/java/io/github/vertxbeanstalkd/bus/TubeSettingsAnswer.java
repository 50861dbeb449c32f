package io.github.vertxbeanstalkd.bus;

import io.github.vertxbeanstalkd.protocol.TubeSettings;
import java.util.Map;

/**
 * The engine's answer to a {@link EngineRequest.TubeSettingsChange}: whether the change was made,
 * and every tube's own settings after it ({@code "*"} included).
 *
 * @param isChanged false when the node may not change anything now (a standby, a fenced primary),
 *     or when nothing was asked but the table
 */
public record TubeSettingsAnswer(boolean isChanged, Map<String, TubeSettings> table) {

  /** {@code tube}'s settings in force: its own over those of {@code "*"}. */
  public TubeSettings effective(String tube) {
    return own(tube).over(own(TubeSettings.EVERY_TUBE));
  }

  /** {@code tube}'s own settings, or {@link TubeSettings#NONE}. */
  public TubeSettings own(String tube) {
    return table.getOrDefault(tube, TubeSettings.NONE);
  }
}
