// The engine's access to the system ICU. This header declares no ICU type, so
// that Swift code importing it never sees ICU's headers (which clash with the
// ICU that Foundation bundles). ICU itself is loaded with
// dlopen(RTLD_LOCAL) and its entry points found by their versioned names, so
// the engine's ICU and Foundation's ICU never bind to each other's symbols.
#ifndef ENGINE_ICU_H
#define ENGINE_ICU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Loads the system ICU once (later calls return the first outcome).
/// Returns true if it is usable; otherwise copies a message into `message`.
bool engine_icu_load(char *message, size_t capacity);

/// The ICU major version the shim was built against ("72"): the suffix of the
/// entry points it looks up.
const char *engine_icu_version(void);

/// The path of the ICU common library that was loaded, or "" before a
/// successful load.
const char *engine_icu_library_path(void);

/// Serves UTF-16 text to ICU a chunk at a time. Fills `buffer` (room for
/// `capacity` units) with the chunk that holds UTF-16 offset `index`: one
/// with start <= index < start + length if `forward`, start < index <=
/// start + length if not. Writes the chunk's start to `*start` and returns its
/// length. `index` is within 0...text length. A chunk never splits a
/// surrogate pair.
typedef int32_t (*engine_text_fill)(
  const void *context, int64_t index, bool forward, uint16_t *buffer, int32_t capacity,
  int64_t *start);

/// A grapheme cluster break iterator over text served by an `engine_text_fill`.
typedef struct engine_breaker engine_breaker;

/// Opens a grapheme cluster (user-perceived character) break iterator, or
/// returns NULL and copies a message into `message`.
engine_breaker *engine_breaker_open_characters(char *message, size_t capacity);

/// Closes a break iterator.
void engine_breaker_close(engine_breaker *breaker);

/// Points the iterator at a text of `length` UTF-16 units served by `fill`
/// with `context`, in chunks of at most `chunk_capacity` units.
/// Returns false (and copies a message) on failure.
bool engine_breaker_set_text(
  engine_breaker *breaker, const void *context, int64_t length, int32_t chunk_capacity,
  engine_text_fill fill, char *message, size_t capacity);

/// The first boundary after `offset`, or -1 if there is none.
int64_t engine_breaker_following(engine_breaker *breaker, int64_t offset);

/// The last boundary before `offset`, or -1 if there is none.
int64_t engine_breaker_preceding(engine_breaker *breaker, int64_t offset);

/// Whether `offset` is a boundary.
bool engine_breaker_is_boundary(engine_breaker *breaker, int64_t offset);

/// The next boundary after the iterator's current position, or -1 at the end.
int64_t engine_breaker_next(engine_breaker *breaker);

#ifdef __cplusplus
}
#endif

#endif
