package io.github.vertxbeanstalkd.engine;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Members by a small number that is used again once its member is gone: how job records name
 * their tube and their holder in four bytes.
 */
final class Roster<T> {
  private Object[] members = new Object[16];
  private final ArrayDeque<Integer> freeNumbers = new ArrayDeque<>();
  private int limit;

  /** A number no member has; give it a member with {@link #set}. */
  int take() {
    if (!freeNumbers.isEmpty()) {
      return freeNumbers.pop();
    }
    if (limit == members.length) {
      members = Arrays.copyOf(members, limit * 2);
    }
    return limit++;
  }

  void set(int number, T member) {
    members[number] = member;
  }

  @SuppressWarnings("unchecked")
  T at(int number) {
    return (T) members[number];
  }

  /** The member with that number is gone; the number may be taken again. */
  void give(int number) {
    members[number] = null;
    freeNumbers.push(number);
  }
}
