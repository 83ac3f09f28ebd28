#!/usr/bin/env python3
"""Writes the hand-made seed inputs of each fuzz target into Corpus/<target>/.

Each seed is a small program in the byte language the target's decoder reads
(Sources/FuzzSupport/FuzzInput.swift and each target's main.swift): these
helpers spell the common parts. Run through `Fuzz/run.sh --make-seeds`.
"""

import json
import os
import sys

# Indexes into FuzzInput.pieces.
A, B, SPACE, LF, CR, CRLF, PS, LS, NEL = 0, 1, 2, 3, 4, 5, 6, 7, 8
E_ACUTE, E_COMBINING, MANY_MARKS, MARK = 12, 13, 14, 15
GRINNING, THUMBS_TONE, FAMILY, TECHNOLOGIST, HEART = 19, 20, 21, 22, 23
FLAG_FR, FLAG_JP, LONE_RI, TAG_FLAG, CLEF, ZWJ, VS16, TONE = 24, 25, 26, 27, 28, 29, 30, 31
HANGUL_LVT, HANGUL_SYLLABLE, THAI, SARA_AM, CONJUNCT, VIRAMA = 32, 33, 35, 36, 37, 38
NUL, CR_CRLF, PS_LF, LF_CR = 39, 45, 46, 47


def text(*pieces):
    """FuzzInput.text: a count, then a byte per piece."""
    return [len(pieces), *pieces]


def offset(k):
    """FuzzInput.offset: a uniform offset k (for texts under 256 units)."""
    return [0, k]


def interesting(i):
    """FuzzInput.offset: the i-th interesting offset (inside a pair, ...)."""
    return [8, i]


def hostile(kind, extra=0):
    """FuzzInput.offset: 10 end, 11 start, 12 negative, 13 past the end,
    14 far past, 15 an extreme (extra picks which)."""
    return [kind, extra]


def short_range(start, length):
    """FuzzInput.range: start (offset bytes) and a short length (0...8)."""
    return [*start, 1, length]


def two_offsets(a, b):
    """FuzzInput.range: two offsets (ordered by the decoder)."""
    return [*a, 0, *b]


def rope_seeds():
    utf16, utf8, scalars = 2, 0, 1  # FuzzInput.unit() byte values
    nasty = text(A, CRLF, FAMILY, PS, FLAG_FR, E_COMBINING, CR, LF, CLEF, B)
    return {
        # Text, then every offset in every unit.
        "all-offsets": [2, *nasty, 14],
        # Replace inside a surrogate pair (refused), then at valid offsets.
        "replace-inside-pair": [2, *nasty, 0, *short_range(interesting(0), 2), *text(HEART),
                                0, *short_range(offset(3), 4), *text(CR), 14],
        # CR at the end of one piece, LF at the start of the next.
        "split-crlf": [1, 3, 0, *text(A, CR), 1, *text(LF, B), 1, *text(CR), 10, utf16,
                       *offset(2), *offset(1), 14],
        # Invalid UTF-8 for the first rope, then edits by bytes.
        "invalid-utf8": [0, 2, *text(A, GRINNING, B), 0, 4, 2, *short_range(offset(1), 0),
                         3, 2, *text(A), 14],
        # Slices, snapshots, joins and the chunk cursor in every unit.
        "slices-and-chunks": [2, *nasty, 12, 8, utf8, *short_range(offset(2), 8), 1,
                              7, 1, *text(CRLF, TAG_FLAG), 11, scalars, *offset(3), 1, 6,
                              1, 1, 0, 0, 1, 1, 13, 0, 15, 2, 15, 3, 15, 14],
        # Extreme offsets everywhere.
        "extremes": [2, *nasty, 9, utf16, *hostile(15, 0), utf8, 9, utf8, *hostile(15, 11),
                     utf16, 0, *two_offsets(hostile(12, 0), hostile(13, 0)), *text(A),
                     8, scalars, *two_offsets(hostile(15, 5), hostile(15, 6)),
                     10, utf16, *hostile(15, 6), *hostile(15, 11)],
    }


def grapheme_seeds():
    def run(piece_index, count):
        """graphemeText: a run of one of its run pieces."""
        return [0, piece_index, count - 1]

    def pieces(*p):
        """graphemeText: pieces of FuzzInput.text."""
        return [1, *text(*p)]

    def text_of(*parts):
        """The text: which pieces keep a chunk boundary, then the pieces."""
        return [0x55, len(parts), *[b for part in parts for b in part]]

    def queries(*ops):
        """GraphemeClusters(rope), then the queries."""
        return [1, len(ops), *[b for op in ops for b in op]]

    def boundaries(r):
        return [0, *r]

    def for_each(r):
        return [1, *r]

    def is_boundary(x):
        return [2, *x]

    def after(x):
        return [3, *x]

    def before(x):
        return [4, *x]

    def outward(r):
        return [5, *r]

    def inward(r):
        return [6, *r]

    walk = [7]

    def edit(scalar, length, *parts):
        """Replaces `length` scalars at `scalar` with the text of `parts`."""
        return [scalar, length, len(parts), *[b for part in parts for b in part]]

    return {
        # Regional indicators: how they pair depends on the count from the start.
        "regional-indicators": [
            *text_of(run(0, 21), pieces(A), run(1, 3)),
            *queries(walk, for_each(two_offsets(offset(0), offset(50))), is_boundary(offset(2)),
                     after(offset(40)), before(offset(42)), outward(short_range(offset(41), 1))),
            *edit(0, 1, pieces(B)),
            *queries(walk, inward(two_offsets(offset(1), offset(7)))),
        ],
        # ZWJ chains, modifiers and marks across 8-byte chunks.
        "zwj-chains": [
            *text_of(run(4, 6), pieces(FAMILY, TECHNOLOGIST), run(2, 30),
                     pieces(THUMBS_TONE, HEART, ZWJ)),
            *queries(walk, is_boundary(interesting(0)), outward(short_range(interesting(1), 3)),
                     inward(short_range(offset(5), 7)),
                     boundaries(two_offsets(offset(0), offset(40)))),
        ],
        # CR LF, Hangul and Indic clusters, then an edit and more queries.
        "crlf-hangul-indic": [
            *text_of(pieces(CR, LF, CRLF, CR_CRLF), run(7, 4),
                     pieces(HANGUL_LVT, CONJUNCT, VIRAMA, THAI, SARA_AM)),
            *queries(walk, after(offset(1)), before(offset(2)), is_boundary(offset(1))),
            *edit(1, 2, pieces(CRLF), run(10, 2)),
            *queries(walk, for_each(two_offsets(offset(0), offset(6)))),
        ],
        # Hostile offsets and ranges.
        "hostile-offsets": [
            *text_of(pieces(GRINNING, FLAG_JP, E_COMBINING), pieces(TAG_FLAG)),
            *queries(is_boundary(hostile(15, 0)), after(hostile(12, 3)), before(hostile(13, 1)),
                     outward(two_offsets(hostile(15, 4), hostile(15, 7))),
                     inward(short_range(interesting(0), 0)),
                     boundaries(two_offsets(hostile(14, 9), hostile(15, 11))),
                     for_each(two_offsets(interesting(1), hostile(10)))),
        ],
    }


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "Corpus")
    targets = {"FuzzRope": rope_seeds(), "FuzzGraphemes": grapheme_seeds()}
    for target, seeds in targets.items():
        directory = os.path.join(root, target)
        os.makedirs(directory, exist_ok=True)
        for name, data in seeds.items():
            payload = data if isinstance(data, (bytes, bytearray)) else bytes(b & 0xFF for b in data)
            with open(os.path.join(directory, name), "wb") as f:
                f.write(payload)
        print(f"{target}: {len(seeds)} seeds in {directory}")


if __name__ == "__main__":
    main()
