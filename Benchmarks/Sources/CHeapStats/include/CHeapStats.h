#ifndef CHEAPSTATS_H
#define CHEAPSTATS_H
#include <stddef.h>

/// Bytes the C heap has handed out and not taken back (glibc mallinfo2:
/// in-use chunk bytes plus mmapped blocks), or 0 where unavailable.
size_t cheapstats_heap_bytes_in_use(void);

/// Gives the heap's free pages back to the system (glibc malloc_trim), so
/// that the next allocations fault in fresh pages, as in a fresh process.
void cheapstats_release_free_memory(void);

/// Makes the heap keep its free pages (no automatic trimming), so that
/// memory freed by one iteration is reused, resident, by the next.
void cheapstats_keep_free_memory(void);

#endif
