package io.github.vertxbeanstalkd.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.vertxbeanstalkd.store.DirectMemory;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The slot lists and the job records they link through, against a LinkedList per list. */
class JobListTest {
  @Test
  void randomAppendsAndRemovesAcrossListsMatchLinkedLists() {
    DirectMemory memory = new DirectMemory();
    JobTable table = new JobTable(memory);
    Random random = new Random(5);
    List<JobList> lists = List.of(new JobList(table), new JobList(table), new JobList(table));
    List<LinkedList<Integer>> models = List.of(new LinkedList<>(), new LinkedList<>(), new LinkedList<>());
    ArrayList<int[]> live = new ArrayList<>();
    long nextId = 1;
    for (int step = 0; step < 20_000; step++) {
      if (live.isEmpty() || random.nextInt(10) < 6) {
        long id = nextId++;
        int j = table.add(id, 0, new byte[random.nextInt(40)], 0, 0, 0, 1);
        int which = random.nextInt(3);
        lists.get(which).addLast(j);
        models.get(which).addLast(j);
        live.add(new int[] {j, which});
        assertEquals(id, table.id(j));
      } else {
        int[] entry = live.remove(random.nextInt(live.size()));
        lists.get(entry[1]).remove(entry[0]);
        models.get(entry[1]).remove((Integer) entry[0]);
        long id = table.id(entry[0]);
        assertEquals(entry[0], table.find(id));
        table.remove(entry[0]);
        assertEquals(JobTable.NONE, table.find(id));
      }
      int which = random.nextInt(3);
      JobList list = lists.get(which);
      assertEquals(models.get(which).size(), list.size());
      if (step % 100 == 0) {
        List<Integer> walked = new ArrayList<>();
        for (int j = list.first(); j != JobTable.NONE; j = list.after(j)) {
          walked.add(j);
        }
        assertEquals(models.get(which), walked);
      }
    }
    assertEquals(live.size(), table.size());
    table.close();
    assertEquals(0, memory.reservedBytes());
  }
}
