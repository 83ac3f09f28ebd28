#include "CHeapStats.h"
#if defined(__linux__)
#include <limits.h>
#include <malloc.h>
#endif

#if defined(__GLIBC__)
#define CHEAPSTATS_GLIBC 1
#endif

size_t cheapstats_heap_bytes_in_use(void) {
#if defined(CHEAPSTATS_GLIBC) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
#else
    return 0;
#endif
}

void cheapstats_release_free_memory(void) {
#if defined(CHEAPSTATS_GLIBC)
    malloc_trim(0);
#endif
}

void cheapstats_keep_free_memory(void) {
#if defined(CHEAPSTATS_GLIBC)
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}
