/* lib/heap.h - the heap of a command that loads a large campaign on
 * transparent huge pages.
 *
 * A 10k-run report keeps about 3 KiB per run (the runs' JSON records,
 * the values matrix): some 9,000 first-touch page faults of 4 KiB, each an
 * exception into the kernel, which on a paravirtualised guest cost about a
 * tenth of `kbench report`'s CPU (issue 16, README "Performance").  glibc
 * offers the cure as a tunable (glibc manual, "Memory Allocation
 * Tunables": glibc.malloc.hugetlb=1 makes malloc madvise(MADV_HUGEPAGE)
 * what it takes from sbrk(2)), but a tunable is read from GLIBC_TUNABLES
 * at exec: a process cannot set it for itself.  This does by hand what it
 * does, once: it asks malloc for a large top pad (mallopt(3) M_TOP_PAD,
 * and M_TRIM_THRESHOLD so that a free does not hand it back, and
 * M_MMAP_THRESHOLD so that the values' columns come from the same heap),
 * makes malloc grow the heap by that much now, and marks the 2 MiB-aligned
 * part of the new heap MADV_HUGEPAGE (madvise(2)).  Pages are still
 * faulted in only when first touched, 2 MiB at a time where the kernel
 * has them (transparent_hugepage "madvise" or "always"; with "never" this
 * changes nothing); beyond the pad the heap grows as before.
 *
 * Not done in builds with AddressSanitizer (its allocator does not use
 * the brk heap), nor when the kernel says THP is "never". */
#ifndef KB_HEAP_H
#define KB_HEAP_H

#include <stddef.h>

/* Prepare the next `bytes` of heap growth as above.  At most once per
 * process (later calls return 0 at once).  Returns the bytes marked
 * MADV_HUGEPAGE, 0 when nothing was done (bytes under 8 MiB, a sanitizer
 * build, THP "never" or absent, madvise refused: never an error, the
 * heap then works as it always did). */
size_t kb_heap_hugepages(size_t bytes);

#endif
