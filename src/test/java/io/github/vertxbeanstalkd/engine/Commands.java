package io.github.vertxbeanstalkd.engine;

import io.github.vertxbeanstalkd.protocol.Command;
import java.nio.charset.StandardCharsets;

/** Short factories for commands, so engine tests read like protocol transcripts. */
final class Commands {
  private Commands() {}

  static Command put(long pri, long delaySeconds, long ttrSeconds, String body) {
    return new Command.Put((int) pri, (int) delaySeconds, (int) ttrSeconds,
        body.getBytes(StandardCharsets.ISO_8859_1), true);
  }

  static Command put(String body) {
    return put(0, 0, 60, body);
  }

  /** A put whose two trailing bytes were not CR LF. */
  static Command putWithoutCrlf(String body) {
    return new Command.Put(0, 0, 60, body.getBytes(StandardCharsets.ISO_8859_1), false);
  }

  static Command jobTooBig() {
    return new Command.JobTooBig();
  }

  static Command reserve() {
    return Command.Reserve.FOREVER;
  }

  static Command reserveWithTimeout(long seconds) {
    return new Command.Reserve(seconds);
  }

  static Command reserveJob(long id) {
    return new Command.ReserveJob(id);
  }

  static Command delete(long id) {
    return new Command.Delete(id);
  }

  static Command release(long id, long pri, long delaySeconds) {
    return new Command.Release(id, (int) pri, (int) delaySeconds);
  }

  static Command bury(long id, long pri) {
    return new Command.Bury(id, (int) pri);
  }

  static Command touch(long id) {
    return new Command.Touch(id);
  }

  static Command use(String tube) {
    return new Command.Use(tube);
  }

  static Command watch(String tube) {
    return new Command.Watch(tube);
  }

  static Command ignore(String tube) {
    return new Command.Ignore(tube);
  }

  static Command peek(long id) {
    return new Command.Peek(id);
  }

  static Command peekReady() {
    return Command.PeekState.READY;
  }

  static Command peekDelayed() {
    return Command.PeekState.DELAYED;
  }

  static Command peekBuried() {
    return Command.PeekState.BURIED;
  }

  static Command kick(long bound) {
    return new Command.Kick(bound);
  }

  static Command kickJob(long id) {
    return new Command.KickJob(id);
  }

  static Command statsJob(long id) {
    return new Command.StatsJob(id);
  }

  static Command statsTube(String tube) {
    return new Command.StatsTube(tube);
  }

  static Command stats() {
    return Command.Stats.INSTANCE;
  }

  static Command listTubes() {
    return Command.ListTubes.INSTANCE;
  }

  static Command listTubeUsed() {
    return Command.ListTubeUsed.INSTANCE;
  }

  static Command listTubesWatched() {
    return Command.ListTubesWatched.INSTANCE;
  }

  static Command pauseTube(String tube, long seconds) {
    return new Command.PauseTube(tube, seconds);
  }

  static Command quit() {
    return Command.Quit.INSTANCE;
  }
}
