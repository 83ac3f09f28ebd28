// GitHub's cmark-gfm, the system's (Debian: libcmark-gfm-dev and
// libcmark-gfm-extensions-dev), found with pkg-config (libcmark-gfm.pc).
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
