// The system ICU, loaded privately (RTLD_LOCAL) and reached through function
// pointers looked up by their versioned names, plus a UText provider that
// reads text through a callback.
#define _GNU_SOURCE
#include "engine_icu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>
#include <unicode/uversion.h>

// ICU renames its C entry points by version (ubrk_open -> ubrk_open_72);
// the macro names above are those renamed names, so the pointers are declared
// with types of our own.
typedef UBreakIterator *(*ubrk_open_t)(
  UBreakIteratorType, const char *, const UChar *, int32_t, UErrorCode *);
typedef void (*ubrk_close_t)(UBreakIterator *);
typedef void (*ubrk_setUText_t)(UBreakIterator *, UText *, UErrorCode *);
typedef int32_t (*ubrk_move_t)(UBreakIterator *, int32_t);
typedef int32_t (*ubrk_step_t)(UBreakIterator *);
typedef UBool (*ubrk_isBoundary_t)(UBreakIterator *, int32_t);
typedef int32_t (*ubrk_getRuleStatus_t)(UBreakIterator *);
typedef void (*ubrk_setText_t)(UBreakIterator *, const UChar *, int32_t, UErrorCode *);
typedef int32_t (*u_getIntPropertyValue_t)(UChar32, UProperty);
typedef UBool (*u_hasBinaryProperty_t)(UChar32, UProperty);
typedef int8_t (*u_charType_t)(UChar32);
typedef UText *(*utext_setup_t)(UText *, int32_t, UErrorCode *);
typedef UText *(*utext_close_t)(UText *);
typedef const char *(*u_errorName_t)(UErrorCode);

static struct {
  ubrk_open_t open;
  ubrk_close_t close;
  ubrk_setUText_t setUText;
  ubrk_move_t following;
  ubrk_move_t preceding;
  ubrk_isBoundary_t isBoundary;
  ubrk_step_t next;
  ubrk_step_t previous;
  ubrk_getRuleStatus_t ruleStatus;
  ubrk_setText_t setText;
  u_getIntPropertyValue_t intPropertyValue;
  u_hasBinaryProperty_t hasBinaryProperty;
  u_charType_t charType;
  utext_setup_t utextSetup;
  utext_close_t utextClose;
  u_errorName_t errorName;
} icu;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static bool loaded = false;
static char load_message[512] = "";
static char library_path[1024] = "";

static void *lookup(void *handle, const char *name) {
  char versioned[128];
  snprintf(versioned, sizeof versioned, "%s_%s", name, U_ICU_VERSION_SHORT);
  void *symbol = dlsym(handle, versioned);
  if (symbol == NULL) symbol = dlsym(handle, name);  // a build without renaming
  if (symbol == NULL && load_message[0] == 0) {
    snprintf(load_message, sizeof load_message, "ICU entry point %s not found", versioned);
  }
  return symbol;
}

static void load(void) {
  const char *candidates[] = {
    "libicuuc.so." U_ICU_VERSION_SHORT,
    "libicuuc.so",
    "libicucore.dylib",
  };
  void *handle = NULL;
  for (size_t i = 0; i < sizeof candidates / sizeof candidates[0] && handle == NULL; i++) {
    handle = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
  }
  if (handle == NULL) {
    const char *error = dlerror();
    snprintf(load_message, sizeof load_message,
             "cannot load the system ICU (libicuuc.so.%s; install libicu-dev): %s",
             U_ICU_VERSION_SHORT, error ? error : "unknown error");
    return;
  }
  icu.open = (ubrk_open_t)lookup(handle, "ubrk_open");
  icu.close = (ubrk_close_t)lookup(handle, "ubrk_close");
  icu.setUText = (ubrk_setUText_t)lookup(handle, "ubrk_setUText");
  icu.following = (ubrk_move_t)lookup(handle, "ubrk_following");
  icu.preceding = (ubrk_move_t)lookup(handle, "ubrk_preceding");
  icu.isBoundary = (ubrk_isBoundary_t)lookup(handle, "ubrk_isBoundary");
  icu.next = (ubrk_step_t)lookup(handle, "ubrk_next");
  icu.previous = (ubrk_step_t)lookup(handle, "ubrk_previous");
  icu.ruleStatus = (ubrk_getRuleStatus_t)lookup(handle, "ubrk_getRuleStatus");
  icu.setText = (ubrk_setText_t)lookup(handle, "ubrk_setText");
  icu.intPropertyValue = (u_getIntPropertyValue_t)lookup(handle, "u_getIntPropertyValue");
  icu.hasBinaryProperty = (u_hasBinaryProperty_t)lookup(handle, "u_hasBinaryProperty");
  icu.charType = (u_charType_t)lookup(handle, "u_charType");
  icu.utextSetup = (utext_setup_t)lookup(handle, "utext_setup");
  icu.utextClose = (utext_close_t)lookup(handle, "utext_close");
  icu.errorName = (u_errorName_t)lookup(handle, "u_errorName");
  if (load_message[0] != 0) return;
  Dl_info info;
  if (dladdr((void *)icu.open, &info) != 0 && info.dli_fname != NULL) {
    snprintf(library_path, sizeof library_path, "%s", info.dli_fname);
  }
  loaded = true;
}

static void copy_message(char *message, size_t capacity, const char *text) {
  if (message != NULL && capacity > 0) snprintf(message, capacity, "%s", text);
}

bool engine_icu_load(char *message, size_t capacity) {
  pthread_once(&load_once, load);
  if (!loaded) copy_message(message, capacity, load_message);
  return loaded;
}

const char *engine_icu_version(void) { return U_ICU_VERSION_SHORT; }

const char *engine_icu_library_path(void) { return library_path; }

// MARK: - The UText provider
//
// Fields of the UText in use: context = the caller's context, p = the fill
// callback, a = the native length (UTF-16 units), b = the chunk capacity.
// The chunk buffer is the UText's extra space (pExtra), so each clone has its
// own. Native indexes are UTF-16 offsets, so nativeIndexingLimit is the whole
// chunk and ICU never needs the offset-mapping functions.

static UBool text_access(UText *ut, int64_t index, UBool forward);

static UText *text_clone(UText *dest, const UText *src, UBool deep, UErrorCode *status) {
  (void)deep;  // The text is an immutable snapshot: a shallow copy is a deep one.
  if (U_FAILURE(*status)) return dest;
  dest = icu.utextSetup(dest, src->extraSize, status);
  if (U_FAILURE(*status)) return dest;
  dest->providerProperties = src->providerProperties;
  dest->pFuncs = src->pFuncs;
  dest->context = src->context;
  dest->p = src->p;
  dest->a = src->a;
  dest->b = src->b;
  memcpy(dest->pExtra, src->pExtra, (size_t)src->extraSize);
  dest->chunkContents = (const UChar *)dest->pExtra;
  dest->chunkNativeStart = src->chunkNativeStart;
  dest->chunkNativeLimit = src->chunkNativeLimit;
  dest->chunkLength = src->chunkLength;
  dest->chunkOffset = src->chunkOffset;
  dest->nativeIndexingLimit = src->nativeIndexingLimit;
  return dest;
}

static int64_t text_length(UText *ut) { return ut->a; }

static UBool text_access(UText *ut, int64_t index, UBool forward) {
  int64_t length = ut->a;
  if (index < 0) index = 0;
  if (index > length) index = length;
  int64_t start = ut->chunkNativeStart;
  int64_t limit = ut->chunkNativeLimit;
  if (ut->chunkLength > 0) {
    if (forward ? (start <= index && index < limit) : (start < index && index <= limit)) {
      ut->chunkOffset = (int32_t)(index - start);
      return true;
    }
    // At an end, with the chunk that touches it loaded: nothing more to read.
    if ((forward && index == length && limit == length) ||
        (!forward && index == 0 && start == 0)) {
      ut->chunkOffset = (int32_t)(index - start);
      return false;
    }
  }
  if (length == 0) {
    ut->chunkNativeStart = ut->chunkNativeLimit = 0;
    ut->chunkLength = ut->chunkOffset = ut->nativeIndexingLimit = 0;
    return false;
  }
  engine_text_fill fill = (engine_text_fill)ut->p;
  int64_t chunk_start = 0;
  int32_t count = fill(ut->context, index, forward, (uint16_t *)ut->pExtra, (int32_t)ut->b,
                       &chunk_start);
  ut->chunkContents = (const UChar *)ut->pExtra;
  ut->chunkNativeStart = chunk_start;
  ut->chunkNativeLimit = chunk_start + count;
  ut->chunkLength = count;
  ut->nativeIndexingLimit = count;
  int64_t offset = index - chunk_start;
  if (offset < 0) offset = 0;
  if (offset > count) offset = count;
  ut->chunkOffset = (int32_t)offset;
  return forward ? index < chunk_start + count : index > chunk_start;
}

static int32_t text_extract(UText *ut, int64_t start, int64_t limit, UChar *dest,
                            int32_t capacity, UErrorCode *status) {
  if (U_FAILURE(*status)) return 0;
  if (capacity < 0 || (dest == NULL && capacity > 0) || start > limit) {
    *status = U_ILLEGAL_ARGUMENT_ERROR;
    return 0;
  }
  int64_t length = ut->a;
  if (start < 0) start = 0;
  if (limit > length) limit = length;
  if (start > limit) start = limit;
  int32_t written = 0;
  int64_t i = start;
  while (i < limit && text_access(ut, i, true)) {
    int64_t chunk_end = ut->chunkNativeLimit < limit ? ut->chunkNativeLimit : limit;
    for (int64_t j = i; j < chunk_end; j++) {
      if (written < capacity) dest[written] = ut->chunkContents[j - ut->chunkNativeStart];
      written++;
    }
    i = chunk_end;
  }
  text_access(ut, limit, true);
  if (written < capacity) {
    dest[written] = 0;
  } else if (written == capacity) {
    *status = U_STRING_NOT_TERMINATED_WARNING;
  } else {
    *status = U_BUFFER_OVERFLOW_ERROR;
  }
  return written;
}

static const struct UTextFuncs text_funcs = {
  sizeof(struct UTextFuncs), 0, 0, 0,
  text_clone, text_length, text_access, text_extract,
  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

// MARK: - Break iterators

struct engine_breaker {
  UBreakIterator *iterator;
  UText *text;
  int32_t capacity;
};

static void report(char *message, size_t capacity, const char *what, UErrorCode status) {
  if (message == NULL || capacity == 0) return;
  snprintf(message, capacity, "%s: %s", what, icu.errorName ? icu.errorName(status) : "error");
}

static engine_breaker *open_breaker(UBreakIteratorType type, const char *locale, char *message,
                                    size_t capacity) {
  if (!engine_icu_load(message, capacity)) return NULL;
  UErrorCode status = U_ZERO_ERROR;
  UBreakIterator *iterator = icu.open(type, locale, NULL, 0, &status);
  if (U_FAILURE(status)) {
    report(message, capacity, "ubrk_open", status);
    return NULL;
  }
  engine_breaker *breaker = calloc(1, sizeof *breaker);
  if (breaker == NULL) {
    icu.close(iterator);
    copy_message(message, capacity, "out of memory");
    return NULL;
  }
  breaker->iterator = iterator;
  return breaker;
}

engine_breaker *engine_breaker_open_characters(char *message, size_t capacity) {
  return open_breaker(UBRK_CHARACTER, "", message, capacity);
}

engine_breaker *engine_breaker_open_words(const char *locale, char *message, size_t capacity) {
  return open_breaker(UBRK_WORD, locale == NULL ? "" : locale, message, capacity);
}

void engine_breaker_close(engine_breaker *breaker) {
  if (breaker == NULL) return;
  icu.close(breaker->iterator);
  if (breaker->text != NULL) icu.utextClose(breaker->text);
  free(breaker);
}

bool engine_breaker_set_utf16(engine_breaker *breaker, const uint16_t *units, int32_t length,
                              char *message, size_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  icu.setText(breaker->iterator, (const UChar *)units, length, &status);
  if (U_FAILURE(status)) {
    report(message, capacity, "ubrk_setText", status);
    return false;
  }
  return true;
}

bool engine_breaker_set_text(engine_breaker *breaker, const void *context, int64_t length,
                             int32_t chunk_capacity, engine_text_fill fill, char *message,
                             size_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  if (breaker->text == NULL || breaker->capacity < chunk_capacity) {
    if (breaker->text != NULL) icu.utextClose(breaker->text);
    breaker->text = icu.utextSetup(NULL, chunk_capacity * (int32_t)sizeof(UChar), &status);
    if (U_FAILURE(status)) {
      breaker->text = NULL;
      report(message, capacity, "utext_setup", status);
      return false;
    }
    breaker->capacity = chunk_capacity;
  }
  UText *ut = breaker->text;
  ut->providerProperties = (1 << UTEXT_PROVIDER_STABLE_CHUNKS);
  ut->pFuncs = &text_funcs;
  ut->context = context;
  ut->p = (const void *)fill;
  ut->a = length;
  ut->b = breaker->capacity;
  ut->chunkContents = (const UChar *)ut->pExtra;
  ut->chunkNativeStart = 0;
  ut->chunkNativeLimit = 0;
  ut->chunkLength = 0;
  ut->chunkOffset = 0;
  ut->nativeIndexingLimit = 0;
  icu.setUText(breaker->iterator, ut, &status);
  if (U_FAILURE(status)) {
    report(message, capacity, "ubrk_setUText", status);
    return false;
  }
  return true;
}

int64_t engine_breaker_following(engine_breaker *breaker, int64_t offset) {
  int32_t result = icu.following(breaker->iterator, (int32_t)offset);
  return result == UBRK_DONE ? -1 : result;
}

int64_t engine_breaker_preceding(engine_breaker *breaker, int64_t offset) {
  int32_t result = icu.preceding(breaker->iterator, (int32_t)offset);
  return result == UBRK_DONE ? -1 : result;
}

bool engine_breaker_is_boundary(engine_breaker *breaker, int64_t offset) {
  return icu.isBoundary(breaker->iterator, (int32_t)offset);
}

int64_t engine_breaker_next(engine_breaker *breaker) {
  int32_t result = icu.next(breaker->iterator);
  return result == UBRK_DONE ? -1 : result;
}

int64_t engine_breaker_previous(engine_breaker *breaker) {
  int32_t result = icu.previous(breaker->iterator);
  return result == UBRK_DONE ? -1 : result;
}

int32_t engine_breaker_rule_status(engine_breaker *breaker) {
  return icu.ruleStatus(breaker->iterator);
}

// MARK: - Character properties
//
// The header's constants are ICU's own values, so that a value passes
// through unchanged; these checks keep the two in step.

_Static_assert(ENGINE_WORD_NONE_LIMIT == UBRK_WORD_NONE_LIMIT, "UBRK_WORD_NONE_LIMIT");
_Static_assert(ENGINE_EAST_ASIAN_WIDTH_NEUTRAL == U_EA_NEUTRAL, "U_EA_NEUTRAL");
_Static_assert(ENGINE_EAST_ASIAN_WIDTH_AMBIGUOUS == U_EA_AMBIGUOUS, "U_EA_AMBIGUOUS");
_Static_assert(ENGINE_EAST_ASIAN_WIDTH_HALFWIDTH == U_EA_HALFWIDTH, "U_EA_HALFWIDTH");
_Static_assert(ENGINE_EAST_ASIAN_WIDTH_FULLWIDTH == U_EA_FULLWIDTH, "U_EA_FULLWIDTH");
_Static_assert(ENGINE_EAST_ASIAN_WIDTH_NARROW == U_EA_NARROW, "U_EA_NARROW");
_Static_assert(ENGINE_EAST_ASIAN_WIDTH_WIDE == U_EA_WIDE, "U_EA_WIDE");
_Static_assert(ENGINE_CATEGORY_NONSPACING_MARK == U_NON_SPACING_MARK, "U_NON_SPACING_MARK");
_Static_assert(ENGINE_CATEGORY_ENCLOSING_MARK == U_ENCLOSING_MARK, "U_ENCLOSING_MARK");
_Static_assert(ENGINE_CATEGORY_CONTROL == U_CONTROL_CHAR, "U_CONTROL_CHAR");
_Static_assert(ENGINE_CATEGORY_FORMAT == U_FORMAT_CHAR, "U_FORMAT_CHAR");

int32_t engine_icu_east_asian_width(uint32_t scalar) {
  if (!engine_icu_load(NULL, 0)) return -1;
  return icu.intPropertyValue((UChar32)scalar, UCHAR_EAST_ASIAN_WIDTH);
}

int32_t engine_icu_general_category(uint32_t scalar) {
  if (!engine_icu_load(NULL, 0)) return -1;
  return icu.charType((UChar32)scalar);
}

bool engine_icu_has_property(uint32_t scalar, engine_property property) {
  if (!engine_icu_load(NULL, 0)) return false;
  UProperty which;
  switch (property) {
  case ENGINE_PROPERTY_EMOJI: which = UCHAR_EMOJI; break;
  case ENGINE_PROPERTY_EMOJI_PRESENTATION: which = UCHAR_EMOJI_PRESENTATION; break;
  case ENGINE_PROPERTY_VARIATION_SELECTOR: which = UCHAR_VARIATION_SELECTOR; break;
  default: return false;
  }
  return icu.hasBinaryProperty((UChar32)scalar, which);
}
