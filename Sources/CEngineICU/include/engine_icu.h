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

/// A break iterator (grapheme clusters or words) over text served by an
/// `engine_text_fill`.
typedef struct engine_breaker engine_breaker;

/// Opens a grapheme cluster (user-perceived character) break iterator, or
/// returns NULL and copies a message into `message`.
engine_breaker *engine_breaker_open_characters(char *message, size_t capacity);

/// Opens a word break iterator (UBRK_WORD) with the rules of `locale` (""
/// or NULL for the root locale; an unknown locale falls back to the root),
/// or returns NULL and copies a message into `message`.
engine_breaker *engine_breaker_open_words(const char *locale, char *message, size_t capacity);

/// Closes a break iterator.
void engine_breaker_close(engine_breaker *breaker);

/// Points the iterator at a text of `length` UTF-16 units served by `fill`
/// with `context`, in chunks of at most `chunk_capacity` units.
/// Returns false (and copies a message) on failure.
bool engine_breaker_set_text(
  engine_breaker *breaker, const void *context, int64_t length, int32_t chunk_capacity,
  engine_text_fill fill, char *message, size_t capacity);

/// Points the iterator at `length` contiguous UTF-16 units, which must stay
/// alive and unchanged while it is used. Returns false (and copies a message)
/// on failure.
bool engine_breaker_set_utf16(
  engine_breaker *breaker, const uint16_t *units, int32_t length, char *message, size_t capacity);

/// The first boundary after `offset`, or -1 if there is none.
int64_t engine_breaker_following(engine_breaker *breaker, int64_t offset);

/// The last boundary before `offset`, or -1 if there is none.
int64_t engine_breaker_preceding(engine_breaker *breaker, int64_t offset);

/// Whether `offset` is a boundary.
bool engine_breaker_is_boundary(engine_breaker *breaker, int64_t offset);

/// The next boundary after the iterator's current position, or -1 at the end.
int64_t engine_breaker_next(engine_breaker *breaker);

/// The boundary before the iterator's current position, or -1 at the start.
int64_t engine_breaker_previous(engine_breaker *breaker);

/// The status of the rule that made the iterator's current boundary (ICU's
/// `ubrk_getRuleStatus`). It describes the segment that ends at that
/// boundary; for a word iterator, a value below `ENGINE_WORD_NONE_LIMIT` is
/// spaces, punctuation or symbols, and a value at or above it a word of
/// numbers (100...199), letters (200...299), kana (300...399) or ideographs
/// (400...499).
int32_t engine_breaker_rule_status(engine_breaker *breaker);

/// ICU's UBRK_WORD_NONE_LIMIT: the first rule status of a word-like segment.
#define ENGINE_WORD_NONE_LIMIT 100

// MARK: - Character properties

/// ICU's UEastAsianWidth values (Unicode's UAX #11).
#define ENGINE_EAST_ASIAN_WIDTH_NEUTRAL 0
#define ENGINE_EAST_ASIAN_WIDTH_AMBIGUOUS 1
#define ENGINE_EAST_ASIAN_WIDTH_HALFWIDTH 2
#define ENGINE_EAST_ASIAN_WIDTH_FULLWIDTH 3
#define ENGINE_EAST_ASIAN_WIDTH_NARROW 4
#define ENGINE_EAST_ASIAN_WIDTH_WIDE 5

/// A few of ICU's UCharCategory values (general categories Mn, Me, Cc, Cf).
#define ENGINE_CATEGORY_NONSPACING_MARK 6
#define ENGINE_CATEGORY_ENCLOSING_MARK 7
#define ENGINE_CATEGORY_CONTROL 15
#define ENGINE_CATEGORY_FORMAT 16

/// The binary properties `engine_icu_has_property` answers for.
typedef enum engine_property {
  ENGINE_PROPERTY_EMOJI,
  ENGINE_PROPERTY_EMOJI_PRESENTATION,
  ENGINE_PROPERTY_VARIATION_SELECTOR,
} engine_property;

/// The East Asian Width of `scalar` (`u_getIntPropertyValue` with
/// UCHAR_EAST_ASIAN_WIDTH): one of `ENGINE_EAST_ASIAN_WIDTH_*`, or -1 if
/// ICU cannot be loaded.
int32_t engine_icu_east_asian_width(uint32_t scalar);

/// The general category of `scalar` (`u_charType`): a UCharCategory value
/// (see `ENGINE_CATEGORY_*`), or -1 if ICU cannot be loaded.
int32_t engine_icu_general_category(uint32_t scalar);

/// Whether `scalar` has `property` (`u_hasBinaryProperty`); false if ICU
/// cannot be loaded.
bool engine_icu_has_property(uint32_t scalar, engine_property property);

#ifdef __cplusplus
}
#endif

#endif
