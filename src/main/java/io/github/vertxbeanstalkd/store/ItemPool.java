package io.github.vertxbeanstalkd.store;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Items of one fixed size in off-heap pages, named by an int handle (page and index). New items go
 * to the lowest page with room, so that live items gather low and the high pages empty out as a
 * backlog drains; {@link #trim()} gives pages that stayed empty back to the operating system. A
 * freed item's first four bytes link it into its page's free list, so the pool keeps no per-item
 * object or array. One thread only.
 */
public final class ItemPool {
  /**
   * A page's smallest first block (a page starts at a quarter of the pool's items when that is
   * more). A block grows by a quarter (a copy) up to the whole page as its items are handed out, so
   * that a size class holding a few jobs takes a few KiB, not a whole page (measured: 52 body
   * classes touched by a random stream held 54 MB of pages for 0.5 MB of jobs). A quarter, not a
   * doubling: a block's room not yet handed out is then at most a fifth of it (doubling left 6 MiB
   * of 37 MiB empty after a random stream).
   */
  static final int FIRST_BLOCK_BYTES = 16 * 1024;
  private final DirectMemory memory;
  private final int itemBytes;
  private final int shift;
  private final int itemsPerPage;

  private ByteBuffer[] pages = new ByteBuffer[4];
  private int[] liveInPage = new int[4];
  /** Index of the latest freed item of each page, or -1. */
  private int[] freeHead = new int[4];
  /** Items from this index on were never handed out (so a new page needs no free list). */
  private int[] untouchedFrom = new int[4];
  /** Items the page's block holds now: from the first block's up to {@link #itemsPerPage}. */
  private int[] capacityItems = new int[4];
  /** Pages found empty by the last {@link #trim()}. */
  private boolean[] wasEmpty = new boolean[4];
  /** One bit per page that exists and has room. */
  private long[] hasRoom = new long[1];
  /** Pages in use or released below this index; above it, no page was ever made. */
  private int pageLimit;
  /** No page below this index has room. */
  private int roomHint;
  private int liveItems;
  private int livePages;
  private long reservedBytes;

  /**
   * @param itemBytes the size of every item, at least 4
   * @param itemsPerPageLog2 log2 of the items in a page; handles need it plus the page bits in 31 bits
   */
  public ItemPool(DirectMemory memory, int itemBytes, int itemsPerPageLog2) {
    if (itemBytes < 4 || itemsPerPageLog2 < 0 || itemsPerPageLog2 > 24
        || ((long) itemBytes << itemsPerPageLog2) > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("item of " + itemBytes + " bytes, 2^" + itemsPerPageLog2 + " a page");
    }
    this.memory = memory;
    this.itemBytes = itemBytes;
    this.shift = itemsPerPageLog2;
    this.itemsPerPage = 1 << itemsPerPageLog2;
  }

  public int itemBytes() {
    return itemBytes;
  }

  public int liveItems() {
    return liveItems;
  }

  public int livePages() {
    return livePages;
  }

  /** Off-heap bytes this pool holds now. */
  public long reservedBytes() {
    return reservedBytes;
  }

  /** Room reserved in pages but not holding an item: what the next items fill before a page is added. */
  public long freeBytes() {
    return reservedBytes() - (long) liveItems * itemBytes;
  }

  /** A new item's handle; its bytes are whatever the last user left (only the first 4 are ours). */
  public int allocate() {
    int p = lowestPageWithRoom();
    if (p < 0) {
      p = newPage();
    }
    int index = freeHead[p];
    if (index >= 0) {
      freeHead[p] = pages[p].getInt(index * itemBytes);
    } else {
      index = untouchedFrom[p];
      if (index == capacityItems[p]) {
        growBlock(p);
      }
      untouchedFrom[p]++;
    }
    if (++liveInPage[p] == itemsPerPage) {
      setRoom(p, false);
    }
    wasEmpty[p] = false;
    liveItems++;
    return p << shift | index;
  }

  public void free(int handle) {
    int p = handle >>> shift;
    int index = handle & (itemsPerPage - 1);
    if (pages[p] == null || liveInPage[p] == 0) {
      throw new IllegalStateException("item " + handle + " is not live");
    }
    pages[p].putInt(index * itemBytes, freeHead[p]);
    freeHead[p] = index;
    if (liveInPage[p]-- == itemsPerPage) {
      setRoom(p, true);
    }
    roomHint = Math.min(roomHint, p);
    liveItems--;
  }

  /**
   * The first handle from {@code handle} on that may be live (its page holds items and it was
   * handed out at least once), or -1 past the last: a cursor over every item, in handle order, that
   * needs no array of the live ones. Items do not move, so an item live from before a walk starts
   * until after it ends is met exactly once.
   */
  public int nextTouched(int handle) {
    int p = handle >>> shift;
    int index = handle & (itemsPerPage - 1);
    for (; p < pageLimit; p++, index = 0) {
      if (pages[p] != null && liveInPage[p] > 0 && index < untouchedFrom[p]) {
        return p << shift | index;
      }
    }
    return -1;
  }

  /** The page holding the item: read and write it at {@link #offset}. */
  public ByteBuffer page(int handle) {
    return pages[handle >>> shift];
  }

  public int offset(int handle) {
    return (handle & (itemsPerPage - 1)) * itemBytes;
  }

  /**
   * Frees the pages that were empty at the previous call and still are; called about once a second,
   * so a page emptied and refilled in between is not given back and taken again. Returns the bytes
   * given back.
   */
  public long trim() {
    return trim(Long.MAX_VALUE);
  }

  /**
   * As {@link #trim()}, but stops giving pages back once {@code maxBytes} have gone: the rest stay
   * marked and go at later calls. Giving a page back costs the calling thread (the engine's) the
   * unmapping of every one of its pages, so a whole drained backlog at once was a stall.
   */
  public long trim(long maxBytes) {
    long released = 0;
    for (int p = 0; p < pageLimit; p++) {
      if (pages[p] == null) {
        continue;
      }
      if (liveInPage[p] != 0) {
        wasEmpty[p] = false;
      } else if (!wasEmpty[p]) {
        wasEmpty[p] = true;
      } else if (released < maxBytes) {
        long bytes = (long) capacityItems[p] * itemBytes;
        memory.free(pages[p], bytes);
        pages[p] = null;
        setRoom(p, false);
        wasEmpty[p] = false;
        livePages--;
        reservedBytes -= bytes;
        released += bytes;
      }
    }
    while (pageLimit > 0 && pages[pageLimit - 1] == null) {
      pageLimit--;
    }
    return released;
  }

  /** Frees every page; the pool must not be used again. */
  public void close() {
    for (int p = 0; p < pageLimit; p++) {
      if (pages[p] != null) {
        memory.free(pages[p], (long) capacityItems[p] * itemBytes);
        pages[p] = null;
      }
    }
    pageLimit = 0;
    livePages = 0;
    liveItems = 0;
    reservedBytes = 0;
  }

  private int lowestPageWithRoom() {
    for (int w = roomHint >>> 6; w < hasRoom.length; w++) {
      long bits = hasRoom[w];
      if (w == roomHint >>> 6) {
        bits &= -1L << (roomHint & 63);
      }
      if (bits != 0) {
        roomHint = (w << 6) + Long.numberOfTrailingZeros(bits);
        return roomHint;
      }
    }
    roomHint = pageLimit;
    return -1;
  }

  private int newPage() {
    int p = 0;
    while (p < pageLimit && pages[p] != null) {
      p++;
    }
    if (p == pageLimit) {
      if ((long) (p + 1) << shift > Integer.MAX_VALUE) {
        throw new OutOfMemoryError("item pool of " + itemBytes + "-byte items is full");
      }
      grow(p + 1);
    }
    // A quarter of what the pool holds, so that a deep backlog's pages start whole (no copies while
    // it fills) and a small pool's room not yet handed out stays a fraction of its items.
    int firstItems = Math.max(1, Math.min(itemsPerPage, Math.max(FIRST_BLOCK_BYTES / itemBytes, liveItems / 4)));
    pages[p] = memory.growsInPlace()
        ? memory.allocateGrowable(firstItems * itemBytes, itemsPerPage * itemBytes)
        : memory.allocate(firstItems * itemBytes);
    capacityItems[p] = firstItems;
    reservedBytes += (long) firstItems * itemBytes;
    if (p == pageLimit) {
      pageLimit++;
    }
    liveInPage[p] = 0;
    freeHead[p] = -1;
    untouchedFrom[p] = 0;
    wasEmpty[p] = false;
    livePages++;
    setRoom(p, true);
    return p;
  }

  /**
   * Grows page {@code p}'s block by a quarter (at least an item), up to the whole page: in place
   * where its room was reserved whole ({@link DirectMemory#growsInPlace()}), else by a copy; its
   * items keep their offsets. Throws {@link OutOfMemoryError}, with the page as it was, when there is no room.
   */
  private void growBlock(int p) {
    int items = Math.min(itemsPerPage, capacityItems[p] + Math.max(1, capacityItems[p] / 4));
    if (pages[p].capacity() >= items * itemBytes) {
      // Its whole room is reserved already: counted, not copied.
      memory.grow(pages[p], capacityItems[p] * itemBytes, items * itemBytes);
      reservedBytes += (long) (items - capacityItems[p]) * itemBytes;
      capacityItems[p] = items;
      return;
    }
    ByteBuffer old = pages[p];
    ByteBuffer bigger = memory.allocate(items * itemBytes);
    bigger.put(0, old, 0, old.capacity());
    memory.free(old, (long) capacityItems[p] * itemBytes);
    pages[p] = bigger;
    reservedBytes += (long) (items - capacityItems[p]) * itemBytes;
    capacityItems[p] = items;
  }

  private void grow(int pagesNeeded) {
    if (pagesNeeded <= pages.length) {
      return;
    }
    int n = Math.max(pagesNeeded, pages.length * 2);
    pages = Arrays.copyOf(pages, n);
    liveInPage = Arrays.copyOf(liveInPage, n);
    freeHead = Arrays.copyOf(freeHead, n);
    untouchedFrom = Arrays.copyOf(untouchedFrom, n);
    capacityItems = Arrays.copyOf(capacityItems, n);
    wasEmpty = Arrays.copyOf(wasEmpty, n);
    hasRoom = Arrays.copyOf(hasRoom, (n + 63) >>> 6);
  }

  private void setRoom(int p, boolean isRoom) {
    if (isRoom) {
      hasRoom[p >>> 6] |= 1L << (p & 63);
      roomHint = Math.min(roomHint, p);
    } else {
      hasRoom[p >>> 6] &= ~(1L << (p & 63));
    }
  }
}
