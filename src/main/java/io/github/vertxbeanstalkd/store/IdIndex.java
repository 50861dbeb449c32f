package io.github.vertxbeanstalkd.store;

import java.nio.ByteBuffer;

/**
 * Every live job id to its slot. Ids are handed out in sequence and most jobs go within a while of
 * their put, so the live ids sit mostly in a window of recent pages: pages of {@link #PAGE_IDS}
 * ids, off the heap, where an id's slot is at the id's own place. A put writes next to the last
 * one (one cache line per 16 puts) instead of a random bucket of a hash table of millions, and
 * nothing is ever rehashed or moved as the queue deepens. Ids outside the window, and ids of pages
 * that thinned out, are in a hash table ({@link SlotIndex}): a page that falls below
 * {@link #SPARSE_IDS} live ids (the newest page excepted, which is always there) moves them there
 * and is given back, so a page costs at most {@code PAGE_IDS * 4 / SPARSE_IDS} bytes per live id.
 * Pages the window skipped when ids jumped ahead hold no id anywhere: the first put into one makes
 * it, so ids that come out of order but close together (a standby's copy, walked by slot, with the
 * primary's new puts among it) land in pages too, not one by one in the table. One thread only.
 */
public final class IdIndex {
  public static final int NONE = SlotIndex.NONE;
  static final int PAGE_BITS = 12;
  static final int PAGE_IDS = 1 << PAGE_BITS;
  private static final int PAGE_MASK = PAGE_IDS - 1;
  private static final int PAGE_BYTES = PAGE_IDS * Integer.BYTES;
  /** Below this many live ids a page other than the newest moves them to the table: at most 128 bytes a live id. */
  static final int SPARSE_IDS = PAGE_IDS / 32;
  /**
   * A put this many pages past the newest restarts the window there (everything before goes to the
   * table). Pages skipped cost only their place in the window's arrays, 12 bytes each.
   */
  static final long MAX_GAP_PAGES = 1 << 14;
  /** The live count of a page the window skipped: none of its ids was ever put, so a put may make it. */
  private static final int SKIPPED = -1;
  private static final int MIN_WINDOW = 16;

  private final DirectMemory memory;
  private final SlotIndex sparse;
  /** The window's pages by page number modulo their length; null where a page was given back or never made. */
  private ByteBuffer[] pages = new ByteBuffer[MIN_WINDOW];
  private int[] live = new int[MIN_WINDOW];
  private int mask = MIN_WINDOW - 1;
  /** The window: pages {@code base} to {@code top}; empty while {@code top < base}. */
  private long base;
  private long top = -1;
  private int pagesHeld;
  private int denseSize;

  public IdIndex(DirectMemory memory, SlotIndex.Ids ids) {
    this.memory = memory;
    this.sparse = new SlotIndex(memory, ids);
    // The first ids' page from the start, as the table has its smallest size: there is always a
    // newest page, so a drained store holds what a new one does, not a page more until a trim.
    extendTo(0);
  }

  public int size() {
    return denseSize + sparse.size();
  }

  /** Off-heap bytes of the pages and the table now. */
  public long reservedBytes() {
    return (long) pagesHeld * PAGE_BYTES + sparse.reservedBytes();
  }

  /** The slot of {@code id}, or {@link #NONE}. */
  public int get(long id) {
    ByteBuffer page = pageOf(id >>> PAGE_BITS);
    if (page != null) {
      return page.getInt(offset(id)) - 1;
    }
    return sparse.size() == 0 ? NONE : sparse.get(id);
  }

  /** Adds an id that is not in the index. */
  public void put(long id, int slot) {
    long p = id >>> PAGE_BITS;
    if (size() == 0 && (p < base || p > top)) {
      // Nothing is held: the window starts again where the ids are now (a standby's copy may
      // start far below what it held before).
      restartAt(p);
    } else if (p > top) {
      extendTo(p);
    }
    ByteBuffer page = pageOf(p);
    if (page == null && p >= base && live[(int) p & mask] == SKIPPED) {
      page = makeSkipped(p);
    }
    if (page == null) {
      sparse.put(id, slot);
      return;
    }
    page.putInt(offset(id), slot + 1);
    live[(int) p & mask]++;
    denseSize++;
  }

  /**
   * Makes skipped page {@code p} while the pages held average at least {@link #SPARSE_IDS} live ids
   * each; otherwise it is given up as a thinned page is, and its ids go to the table from now on.
   */
  private ByteBuffer makeSkipped(long p) {
    int r = (int) p & mask;
    live[r] = 0;
    if ((long) pagesHeld * SPARSE_IDS > denseSize + PAGE_IDS) {
      return null;
    }
    pages[r] = memory.allocateOverLimit(PAGE_BYTES);
    pagesHeld++;
    return pages[r];
  }

  /** Gives back every page (all empty, as the index is) and starts the window at page {@code p}. */
  private void restartAt(long p) {
    for (long q = base; q <= top; q++) {
      int r = (int) q & mask;
      if (pages[r] != null) {
        memory.free(pages[r]);
        pages[r] = null;
        pagesHeld--;
      }
    }
    base = p;
    top = p - 1;
    extendTo(p);
  }

  /** Removes the id; false when it was not there. */
  public boolean remove(long id) {
    long p = id >>> PAGE_BITS;
    ByteBuffer page = pageOf(p);
    if (page == null) {
      return sparse.remove(id);
    }
    int at = offset(id);
    if (page.getInt(at) == 0) {
      return false;
    }
    page.putInt(at, 0);
    denseSize--;
    int r = (int) p & mask;
    if (--live[r] < SPARSE_IDS && p < top) {
      thin(p);
    }
    return true;
  }

  /** Moves on with shrinking the table (see {@link SlotIndex#trim}); about once a second. */
  public void trim() {
    sparse.trim();
  }

  /** Every slot in the index, in no order. */
  public int[] slots() {
    int[] slots = new int[size()];
    int n = 0;
    for (long p = base; p <= top; p++) {
      ByteBuffer page = pages[(int) p & mask];
      for (int i = 0; page != null && i < PAGE_IDS; i++) {
        int v = page.getInt(i * Integer.BYTES);
        if (v != 0) {
          slots[n++] = v - 1;
        }
      }
    }
    int[] rest = sparse.slots();
    System.arraycopy(rest, 0, slots, n, rest.length);
    return slots;
  }

  public void close() {
    for (int r = 0; r < pages.length; r++) {
      if (pages[r] != null) {
        memory.free(pages[r]);
        pages[r] = null;
      }
    }
    pagesHeld = 0;
    sparse.close();
  }

  private ByteBuffer pageOf(long p) {
    return p >= base && p <= top ? pages[(int) p & mask] : null;
  }

  private static int offset(long id) {
    return ((int) id & PAGE_MASK) * Integer.BYTES;
  }

  /**
   * Makes page {@code p}, past the window's top, the new top. Pages between are not made until an id
   * of theirs is put ({@link #SKIPPED}); a jump of more than {@link #MAX_GAP_PAGES} (ids restored or followed from far
   * ahead) moves the whole window to the table first and starts it again at {@code p}.
   */
  private void extendTo(long p) {
    if (top >= base && p - top > MAX_GAP_PAGES) {
      for (long q = base; q <= top; q++) {
        if (pages[(int) q & mask] != null) {
          moveToTable(q);
        }
      }
      base = top + 1;
    }
    if (top >= base && pages[(int) top & mask] != null && live[(int) top & mask] < SPARSE_IDS) {
      // The newest page is left with few ids (puts and deletes in step leave it empty): no delete
      // may come to thin it later.
      moveToTable(top);
    }
    if (top < base) {
      // An empty window (every page given back) starts again at p.
      base = p;
      top = p - 1;
    }
    if (p - base + 1 > pages.length) {
      grow(p - base + 1);
    }
    for (long q = top + 1; q < p; q++) {
      pages[(int) q & mask] = null;
      live[(int) q & mask] = SKIPPED;
    }
    pages[(int) p & mask] = memory.allocateOverLimit(PAGE_BYTES);
    live[(int) p & mask] = 0;
    pagesHeld++;
    top = p;
    skipGivenBack();
  }

  /** Room for {@code span} pages from {@code base}, each kept at its page number modulo the new length. */
  private void grow(long span) {
    int length = pages.length;
    while (length < span) {
      length *= 2;
    }
    ByteBuffer[] grown = new ByteBuffer[length];
    int[] grownLive = new int[length];
    for (long q = base; q <= top; q++) {
      grown[(int) q & (length - 1)] = pages[(int) q & mask];
      grownLive[(int) q & (length - 1)] = live[(int) q & mask];
    }
    pages = grown;
    live = grownLive;
    mask = length - 1;
  }

  /** Page {@code p} thinned out: its ids go to the table and it is given back. */
  private void thin(long p) {
    moveToTable(p);
    skipGivenBack();
  }

  /** Moves the window's base past pages given back (past the top too, when none is left), and old skipped ones. */
  private void skipGivenBack() {
    // A skipped page stays while it is near the top: the ids it waits for may still come.
    while (base <= top && pages[(int) base & mask] == null
        && (live[(int) base & mask] != SKIPPED || top - base > MAX_GAP_PAGES)) {
      base++;
    }
  }

  private void moveToTable(long p) {
    int r = (int) p & mask;
    ByteBuffer page = pages[r];
    for (int i = 0; live[r] > 0 && i < PAGE_IDS; i++) {
      int v = page.getInt(i * Integer.BYTES);
      if (v != 0) {
        sparse.put(p << PAGE_BITS | i, v - 1);
        live[r]--;
        denseSize--;
      }
    }
    memory.free(page);
    pages[r] = null;
    pagesHeld--;
  }
}
