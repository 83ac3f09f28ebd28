// See reference_icu.h. ICU's C API is declared here by hand (an opaque
// iterator, int error codes), and its versioned names are found by trying
// the library versions a system may have.
#define _GNU_SOURCE
#include "reference_icu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct UBreakIterator UBreakIterator;
typedef int UErrorCode;  // U_ZERO_ERROR is 0; failures are > 0
enum { UBRK_CHARACTER = 0, UBRK_DONE = -1 };

typedef UBreakIterator *(*open_t)(int, const char *, const uint16_t *, int32_t, UErrorCode *);
typedef void (*close_t)(UBreakIterator *);
typedef int32_t (*step_t)(UBreakIterator *);
typedef int32_t (*move_t)(UBreakIterator *, int32_t);
typedef int8_t (*is_boundary_t)(UBreakIterator *, int32_t);

static struct {
  open_t open;
  close_t close;
  step_t first;
  step_t next;
  move_t following;
  move_t preceding;
  is_boundary_t is_boundary;
} icu;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded = false;
static char failure[512] = "";
static char description[1100] = "";

static void *find(void *handle, const char *name, const char *suffix) {
  char versioned[96];
  if (suffix[0] != 0) {
    snprintf(versioned, sizeof versioned, "%s_%s", name, suffix);
  } else {
    snprintf(versioned, sizeof versioned, "%s", name);
  }
  return dlsym(handle, versioned);
}

static void load(void) {
  void *handle = NULL;
  char suffix[16] = "";
  char path[64] = "";
  // The versioned sonames, newest first, then the development symlink.
  for (int version = 99; version >= 50 && handle == NULL; version--) {
    snprintf(path, sizeof path, "libicuuc.so.%d", version);
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle != NULL) snprintf(suffix, sizeof suffix, "%d", version);
  }
  if (handle == NULL) {
    snprintf(path, sizeof path, "libicuuc.so");
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  }
  if (handle == NULL) {
    snprintf(failure, sizeof failure, "cannot load libicuuc: %s", dlerror());
    return;
  }
  if (suffix[0] == 0 || find(handle, "ubrk_open", suffix) == NULL) {
    // Find the suffix from the library itself.
    suffix[0] = 0;
    for (int version = 99; version >= 50; version--) {
      char candidate[16];
      snprintf(candidate, sizeof candidate, "%d", version);
      if (find(handle, "ubrk_open", candidate) != NULL) {
        snprintf(suffix, sizeof suffix, "%s", candidate);
        break;
      }
    }
  }
  icu.open = (open_t)find(handle, "ubrk_open", suffix);
  icu.close = (close_t)find(handle, "ubrk_close", suffix);
  icu.first = (step_t)find(handle, "ubrk_first", suffix);
  icu.next = (step_t)find(handle, "ubrk_next", suffix);
  icu.following = (move_t)find(handle, "ubrk_following", suffix);
  icu.preceding = (move_t)find(handle, "ubrk_preceding", suffix);
  icu.is_boundary = (is_boundary_t)find(handle, "ubrk_isBoundary", suffix);
  if (!icu.open || !icu.close || !icu.first || !icu.next || !icu.following || !icu.preceding ||
      !icu.is_boundary) {
    snprintf(failure, sizeof failure, "ICU break iterator entry points (suffix '%s') not found",
             suffix);
    return;
  }
  snprintf(description, sizeof description, "%s (entry points _%s)", path, suffix);
  loaded = true;
}

bool reference_icu_load(char *message, size_t capacity) {
  pthread_once(&once, load);
  if (!loaded && message != NULL && capacity > 0) snprintf(message, capacity, "%s", failure);
  return loaded;
}

const char *reference_icu_description(void) { return description; }

struct reference_breaker {
  UBreakIterator *iterator;
  uint16_t *text;
};

reference_breaker *reference_breaker_open(const uint16_t *text, int32_t length) {
  if (!reference_icu_load(NULL, 0) || length < 0) return NULL;
  reference_breaker *breaker = calloc(1, sizeof *breaker);
  if (breaker == NULL) return NULL;
  // ICU reads the text in place for as long as the iterator lives.
  breaker->text = malloc(sizeof(uint16_t) * (size_t)(length > 0 ? length : 1));
  if (breaker->text == NULL) {
    free(breaker);
    return NULL;
  }
  if (length > 0) memcpy(breaker->text, text, sizeof(uint16_t) * (size_t)length);
  UErrorCode status = 0;
  breaker->iterator = icu.open(UBRK_CHARACTER, "", breaker->text, length, &status);
  if (status > 0 || breaker->iterator == NULL) {
    free(breaker->text);
    free(breaker);
    return NULL;
  }
  return breaker;
}

void reference_breaker_close(reference_breaker *breaker) {
  if (breaker == NULL) return;
  icu.close(breaker->iterator);
  free(breaker->text);
  free(breaker);
}

int32_t reference_breaker_first(reference_breaker *breaker) { return icu.first(breaker->iterator); }

int32_t reference_breaker_next(reference_breaker *breaker) { return icu.next(breaker->iterator); }

int32_t reference_breaker_following(reference_breaker *breaker, int32_t offset) {
  return icu.following(breaker->iterator, offset);
}

int32_t reference_breaker_preceding(reference_breaker *breaker, int32_t offset) {
  return icu.preceding(breaker->iterator, offset);
}

bool reference_breaker_is_boundary(reference_breaker *breaker, int32_t offset) {
  return icu.is_boundary(breaker->iterator, offset) != 0;
}
