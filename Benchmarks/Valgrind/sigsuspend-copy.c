// Lets valgrind 3.19 (Debian 12) run the Swift benchmarks: preload it with
//
//   cc -shared -fPIC -O2 -o /tmp/sigsuspend-copy.so Benchmarks/Valgrind/sigsuspend-copy.c
//   DATASTORE_BENCHMARK_PROFILE=n-plus-one-preferring LD_PRELOAD=/tmp/sigsuspend-copy.so \
//     valgrind --tool=callgrind .build/release/DataStoreBenchmark
//
// Why: an executable with top-level `await` (an async main) parks its main thread in
// libdispatch's `dispatch_main()`, which ends in `sigsuspend()` with a signal mask that lives in
// libdispatch's read-only data. Valgrind 3.19's rt_sigsuspend wrapper removes its own signal from
// the mask in place, writes to that read-only page and dies with "VALGRIND INTERNAL ERROR: Valgrind
// received a signal 11 (SIGSEGV)" before the benchmark starts. This wrapper hands the kernel a
// writable copy of the mask; nothing else changes. Profiling aid only: no target builds it.
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
  sigset_t copy = *mask;
  return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
