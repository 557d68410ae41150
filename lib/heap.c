/* lib/heap.c - see heap.h. */
#include "lib/heap.h"
#include "lib/file.h"

#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE ((uintptr_t)2 << 20)
#define MIN_BYTES ((size_t)8 << 20)
#define MAX_BYTES ((size_t)1 << 30)

/* Whether /sys/kernel/mm/transparent_hugepage/enabled selects madvise or
 * always ("always [madvise] never": the word in brackets). */
static int thp_offered(void)
{
	char *text = NULL;
	int ok;

	if (kb_read_file("/sys/kernel/mm/transparent_hugepage/enabled",
			 &text, NULL, 1))
		return 0;
	ok = strstr(text, "[madvise]") || strstr(text, "[always]");
	free(text);
	return ok;
}

size_t kb_heap_hugepages(size_t bytes)
{
	static int done;
	uintptr_t start, end, a, b;
	void *volatile p;	/* volatile: the compiler would drop the
				 * malloc/free pair that grows the heap */

	if (done || KB_FREE_AT_EXIT || bytes < MIN_BYTES)
		return 0;
	done = 1;
	if (!thp_offered())
		return 0;
	if (bytes > MAX_BYTES)
		bytes = MAX_BYTES;
	mallopt(M_TOP_PAD, (int)bytes);
	mallopt(M_TRIM_THRESHOLD, (int)(bytes < INT_MAX / 2 ? 2 * bytes :
					INT_MAX));
	mallopt(M_MMAP_THRESHOLD, 32 << 20);	/* glibc's largest */
	start = (uintptr_t)sbrk(0);
	/* more than the top has: malloc takes it and the pad from sbrk(2)
	 * (under M_MMAP_THRESHOLD, so from the heap) */
	p = malloc(256 << 10);
	end = (uintptr_t)sbrk(0);
	free(p);
	if (start == (uintptr_t)-1 || end == (uintptr_t)-1)
		return 0;
	a = (start + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	b = end & ~(HUGE_PAGE - 1);
	if (b <= a || madvise((void *)a, b - a, MADV_HUGEPAGE))
		return 0;
	return b - a;
}
