#include "mapped_guard.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define GUARDS 64

/* A guard is free when `start` is 0. The handler reads the ranges with atomic
 * loads; `add` claims a free guard with a compare-and-swap of `start`. */
static struct {
  _Atomic uintptr_t start;
  _Atomic uintptr_t end;
  _Atomic int hit;
} guards[GUARDS];

static struct sigaction previous;
static uintptr_t page_size;
static int installed;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static void on_bus(int signal_number, siginfo_t *info, void *context) {
  uintptr_t address = (uintptr_t)info->si_addr;
  for (int index = 0; index < GUARDS; index++) {
    uintptr_t start = atomic_load(&guards[index].start);
    if (start == 0 || address < start || address >= atomic_load(&guards[index].end)) continue;
    /* A page of zeros where the file's page was: the read that faulted runs again and goes on. */
    void *page = (void *)(address & ~(page_size - 1));
    if (mmap(page, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
      atomic_store(&guards[index].hit, 1);
      return;
    }
    break;
  }
  /* Not a guarded mapping: what was there before. */
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction != NULL) {
      previous.sa_sigaction(signal_number, info, context);
      return;
    }
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler != NULL) {
    previous.sa_handler(signal_number);
    return;
  }
  /* The default action: the faulting access runs again and ends the process. */
  struct sigaction fallback;
  memset(&fallback, 0, sizeof fallback);
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(SIGBUS, &fallback, NULL);
}

static void install(void) {
  page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_bus;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  installed = sigaction(SIGBUS, &action, &previous) == 0;
}

int outline_mapped_guard_add(const void *base, size_t length) {
  pthread_once(&install_once, install);
  if (!installed || base == NULL || length == 0) return -1;
  for (int index = 0; index < GUARDS; index++) {
    uintptr_t expected = 0;
    /* A free guard's end is 0 (removal clears it first): the handler matches no address of a
     * claimed one until its end is set. */
    if (atomic_compare_exchange_strong(&guards[index].start, &expected, (uintptr_t)base)) {
      atomic_store(&guards[index].hit, 0);
      atomic_store(&guards[index].end, (uintptr_t)base + length);
      return index;
    }
  }
  return -1;
}

int outline_mapped_guard_hit(int guard) {
  if (guard < 0 || guard >= GUARDS) return 0;
  return atomic_load(&guards[guard].hit);
}

void outline_mapped_guard_remove(int guard) {
  if (guard < 0 || guard >= GUARDS) return;
  atomic_store(&guards[guard].end, 0);
  atomic_store(&guards[guard].start, 0);
}
