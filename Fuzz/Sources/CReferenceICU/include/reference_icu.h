// The system ICU's grapheme cluster break iterator over a flat UTF-16
// buffer: the reference FuzzGraphemes compares the engine with. It is
// loaded here on its own, with dlopen(RTLD_LOCAL) and versioned dlsym, and
// uses no ICU header: it shares nothing with the engine's shim but the
// library.
#ifndef REFERENCE_ICU_H
#define REFERENCE_ICU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Loads ICU once; returns false (and copies a message) if it cannot.
bool reference_icu_load(char *message, size_t capacity);

/// The path of the library that was loaded and the suffix of its entry
/// points ("72"), or "" before a successful load.
const char *reference_icu_description(void);

/// A character break iterator over a copy of `length` UTF-16 units.
typedef struct reference_breaker reference_breaker;

/// Opens an iterator over a copy of `text`, or returns NULL.
reference_breaker *reference_breaker_open(const uint16_t *text, int32_t length);

/// Closes an iterator.
void reference_breaker_close(reference_breaker *breaker);

/// ubrk_first: 0.
int32_t reference_breaker_first(reference_breaker *breaker);

/// ubrk_next: the next boundary, or -1 at the end.
int32_t reference_breaker_next(reference_breaker *breaker);

/// ubrk_following: the first boundary after `offset`, or -1.
int32_t reference_breaker_following(reference_breaker *breaker, int32_t offset);

/// ubrk_preceding: the last boundary before `offset`, or -1.
int32_t reference_breaker_preceding(reference_breaker *breaker, int32_t offset);

/// ubrk_isBoundary.
bool reference_breaker_is_boundary(reference_breaker *breaker, int32_t offset);

#ifdef __cplusplus
}
#endif

#endif
