#ifndef CHEAPSTATS_H
#define CHEAPSTATS_H
#include <stddef.h>

/// Bytes the C heap has handed out and not taken back (glibc mallinfo2:
/// in-use chunk bytes plus mmapped blocks), or 0 where unavailable.
size_t cheapstats_heap_bytes_in_use(void);

#endif
