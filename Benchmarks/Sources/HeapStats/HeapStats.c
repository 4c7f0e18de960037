#include "HeapStats.h"

#if defined(__APPLE__)
#include <malloc/malloc.h>

size_t heap_stats_bytes_in_use(void) {
    malloc_statistics_t statistics;
    malloc_zone_statistics(NULL, &statistics); // NULL: all zones together
    return statistics.size_in_use;
}

#elif defined(__linux__)
#include <malloc.h> // also brings in <features.h>, which defines __GLIBC__

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
size_t heap_stats_bytes_in_use(void) {
    // uordblks: chunks in use in the main arena; hblkhd: chunks served by mmap
    // (a large array of observers lands there, not in uordblks).
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#else
size_t heap_stats_bytes_in_use(void) {
    return 0; // musl, or a glibc older than 2.33: no mallinfo2
}
#endif

#else

size_t heap_stats_bytes_in_use(void) {
    return 0;
}

#endif
