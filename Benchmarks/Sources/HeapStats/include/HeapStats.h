#ifndef LIVEDATA_BENCHMARKS_HEAP_STATS_H
#define LIVEDATA_BENCHMARKS_HEAP_STATS_H

#include <stddef.h>

/// Bytes the process's malloc heap currently hands out to the program
/// (allocated chunks, including the large ones served by mmap).
/// Returns 0 where the platform offers no such statistic.
size_t heap_stats_bytes_in_use(void);

#endif
