#!/usr/bin/env python3
"""Writes the hand-made seed inputs of each fuzz target into Corpus/<target>/.

Each seed is a small program in the byte language the target's decoder reads
(Sources/FuzzSupport/FuzzInput.swift and each target's main.swift): these
helpers spell the common parts. Run through `Fuzz/run.sh --make-seeds`.
"""

import json
import os
import random
import re
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


def vrange(scalar, count, short=True):
    """FuzzDocument's ranges on scalar boundaries: `count` scalars from
    scalar `scalar` (up to 4 when short, else 64)."""
    return [1, scalar, 1 if short else 0, count]


def hrange(rng):
    """FuzzDocument's hostile ranges: FuzzInput.range as it is."""
    return [0, *rng]


def ascii(text_):
    """FuzzInput.text pieces for ASCII characters (bytes past the piece list)."""
    out = []
    for ch in text_:
        b = ord(ch) - 0x20
        while b < 48:
            b += 0x5F
        out.append(b)
    return out


class DocumentProgram:
    """Spells FuzzDocument programs, keeping track of what the decoder
    needs (whether there are storages yet)."""

    IDS = {"title": 0, "body": 1, "cell": 2, "": 3}
    ORIGINS = {"peer": 0, "a": 1, "zz": 2}
    SCOPES = {"userSelection": 0, "fullDocument": 1, "visibleArea": 2}
    STATES = {"inactive": 0, "noninteractive": 1, "interactiveResting": 2,
              "interactiveStreaming": 3}

    def __init__(self, keeps_all_history=False, storages=(), records_history=False):
        # The first byte: keepsAllHistory (0 mod 4); the high bit records
        # the person's and origins' history (History.swift).
        first = 0 if keeps_all_history else 1
        self.bytes = [first | (0x80 if records_history else 0), len(storages) - 1]
        self.storages = set()
        for name, content, *extra in storages:
            self._add(name, content)
        self.bytes.append(0)  # no session at once

    def op(self, number):
        self.bytes.append(number)

    def id(self, name):
        if self.storages:
            self.bytes.append(0)  # from the pool, not the order
        self.bytes.append(self.IDS[name])

    def text(self, pieces):
        """pickText: empty, or up to five pieces."""
        if not pieces:
            self.bytes.append(0)
        else:
            self.bytes += [1, len(pieces), *pieces]

    def _add(self, name, content):
        self.id(name)
        self.bytes += [len(content), *content, 0]
        self.storages.add(name)

    def add(self, name, content):
        self.bytes.append(0)
        self._add(name, content)
        return self

    def remove(self, name):
        self.bytes.append(2)
        self.id(name)
        self.storages.discard(name)
        return self

    def edit(self, name, rng, pieces):
        self.bytes.append(4)
        self.id(name)
        self.bytes += rng
        self.text(pieces)
        self.bytes.append(1)  # without basis
        return self

    def origin_edit(self, name, origin, basis_back, rng, pieces):
        """An edit from `origin` (None: the person) made `basis_back`
        versions ago (None: no basis)."""
        self.bytes.append(8)
        self.id(name)
        self.bytes += [0] if origin is None else [1, self.ORIGINS[origin]]
        if basis_back is None:
            self.bytes.append(0)
        else:
            self.bytes += [1, 2, basis_back - 1] if basis_back > 0 else [1, 0]
        self.bytes += rng
        self.text(pieces)
        return self

    def exclude(self, name, rng):
        self.bytes.append(10)
        self.id(name)
        self.bytes += [*rng, 1]
        return self

    def select(self, name, rng):
        self.bytes += [11, 1, 2]
        self.id(name)
        self.bytes += rng
        return self

    def visible(self, name, rng):
        self.bytes += [13, 1]
        self.id(name)
        self.bytes += rng
        return self

    def start(self, scope, surrounding=None):
        self.bytes += [14, self.SCOPES[scope]]
        if surrounding is None:
            self.bytes.append(0)
        elif surrounding == "huge":
            self.bytes += [5, 0]  # Int.max
        elif surrounding < 0:
            self.bytes += [4, -surrounding - 1]
        else:
            self.bytes += [3, surrounding - 1]
        return self

    def replace(self, context, rng, pieces, basis=None, merge=False):
        """Replaces in live context number `context` (in name order);
        basis None (no basis), "current", or how many versions back."""
        self.bytes += [16, 2, context, *rng]
        self.text(pieces)
        if basis is None:
            self.bytes.append(0)
        elif basis == "current":
            self.bytes.append(3)
        else:
            self.bytes += [4, basis - 1]
        self.bytes.append(0 if merge else 1)
        return self

    def state(self, name):
        self.bytes += [22, self.STATES[name]]
        return self

    def undo(self):
        self.bytes.append(24)
        return self

    def redo(self):
        self.bytes.append(26)
        return self

    def revert(self):
        self.bytes.append(27)
        return self

    def mark(self, context, rng):
        self.bytes += [28, 2, context, 1, *rng, 1]
        return self

    def map_and_touched(self, name, versions_back, offset_, rng):
        self.bytes.append(29)
        self.id(name)
        self.bytes += [2, versions_back - 1] if versions_back > 0 else [0]
        self.bytes += [*offset_, 0, *rng]
        return self

    def pin(self, name):
        self.bytes.append(30)
        self.id(name)
        self.bytes += [0, 1]
        return self

    def end(self):
        self.bytes += [31, 1, 0]  # misc (odd), endSession (0)
        return self

    def raw(self, *b):
        self.bytes += b
        return self

    # The tracked-range operations (operation bytes 240...255; Tracked.swift).
    EXPANDS = {"none": 0, "before": 1, "after": 2, "both": 3}
    KINDS = {"host": 0, "spelling": 1, "comment": 2, "": 3}

    @classmethod
    def rules(cls, expand="none", bias="left", on_touch="keep"):
        """pickRules' byte."""
        return cls.EXPANDS[expand] | (4 if bias == "right" else 0) | (0 if on_touch == "remove" else 8)

    @staticmethod
    def point(scalar):
        """pickTrackedRange: empty, at scalar boundary `scalar`."""
        return [3, scalar]

    @staticmethod
    def thostile(rng):
        """pickTrackedRange: FuzzInput.range as it is (hostile)."""
        return [5, *rng]

    def track(self, name, ranges, kind="host", **rules):
        """Ranges from vrange (on scalar boundaries), point or thostile."""
        self.bytes.append(240)
        self.id(name)
        self.bytes += [len(ranges), *[b for r in ranges for b in r], self.rules(**rules),
                       self.KINDS[kind]]
        return self

    def track_many(self, name, count, seed, piled=False, **rules):
        self.bytes.append(247)
        self.id(name)
        self.bytes += [count - 64, seed >> 8, seed & 0xFF, 1 if piled else 0, self.rules(**rules),
                       1, 0]
        return self

    def untrack(self, *picks):
        """Each pick: ("live", i) (the i-th live id by value), ("dead", i),
        ("near", i, k) (a live id's neighbour) or ("extreme", k)."""
        self.bytes += [248, len(picks)]
        for pick in picks:
            self.bytes += self._tracked_id(pick)
        if picks:
            self.bytes.append(1)  # no id twice
        return self

    @staticmethod
    def _tracked_id(pick):
        kind, *rest = pick
        return {"live": [0], "dead": [5], "near": [6], "extreme": [7]}[kind] + rest

    def query(self, name, rng=None, kind=None):
        """rng from vrange, point or thostile; None asks for all."""
        self.bytes.append(251)
        self.id(name)
        self.bytes += [0] if rng is None else [1, *rng]
        self.bytes += [1] if kind is None else [0, self.KINDS[kind]]
        return self

    def look_up(self, pick):
        self.bytes += [254, *self._tracked_id(pick)]
        return self

    # The history operations (operation bytes 200...239 of an input that
    # records the history; History.swift). The builder does not follow the
    # runs: `type_new` must come when the party has none that goes on (at
    # the start, after a close, an undo or redo, a tool's group or an
    # accept), `type_more` / `delete_more` when its run goes on.
    HISTORY_ORIGINS = {"peer": 0, "a": 2, "": 4, "emoji": 5}

    def _party(self, person_op, origin_op, origin):
        if origin is None:
            self.bytes.append(person_op)
        else:
            self.bytes += [origin_op, self.HISTORY_ORIGINS[origin]]

    def type_new(self, name, rng, pieces, origin=None):
        """A party starts a run: rng from vrange; typing `pieces` (one or
        two) over it, or deleting it if there are none."""
        self._party(200, 212, origin)
        self.id(name)
        self.bytes += [2, *rng[1:]]  # anywhere (not at a run or a seam)
        self.bytes += [1, len(pieces), *pieces] if pieces else [0]
        return self

    def type_at(self, name, where, pieces, back=True, origin=None):
        """A party starts a run at another party's run ("run", taking the
        first by group) or at the first seam, where deleted units wait
        ("seam"): typing `pieces`, or deleting a scalar before (`back`) or
        after the point if there are none."""
        self._party(200, 212, origin)
        self.id(name)
        self.bytes += [0, 0] if where == "run" else [1, 0]
        self.bytes += [0, 0, 0]  # the range (replaced by the point)
        self.bytes += [1, len(pieces), *pieces] if pieces else [0, 1 if back else 0]
        return self

    def type_more(self, pieces, origin=None):
        """The party types on at the end of its run (one or two pieces)."""
        self._party(200, 212, origin)
        self.bytes += [len(pieces), *pieces]
        return self

    def delete_more(self, back=True, origin=None):
        """The party deletes on next to its run's point: a scalar before
        it (backspace) or after it."""
        self._party(200, 212, origin)
        self.bytes.append(1 if back else 0)
        return self

    def close(self, origin=None):
        self._party(226, 229, origin)
        return self

    def undo_origin(self, origin):
        self.bytes += [218, self.HISTORY_ORIGINS[origin]]
        return self

    def redo_origin(self, origin):
        self.bytes += [223, self.HISTORY_ORIGINS[origin]]
        return self

    def toggle_recording(self):
        """HistoryOptions.isEnabled off (or on again)."""
        self.bytes.append(230)
        return self

    def max_groups(self, k):
        """HistoryOptions.maxGroups: [nil, 0, 1, 2, 3, 5, 8, nil][k]."""
        self.bytes += [235, k]
        return self

    def hundo(self):
        """The main history's undo, as a history operation."""
        self.bytes.append(231)
        return self

    def hredo(self):
        self.bytes.append(236)
        return self

    # The review operations (operation bytes 252, 253 and 255; Review.swift).
    SUGGESTION_KINDS = {"spelling": 0, "grammar": 1, "style": 2, "host's own": 3, "": 4}

    @staticmethod
    def srange(scalar, count, short=True):
        """pickProposal: `count` scalars from scalar `scalar`."""
        return [4, scalar, 1 if short else 0, count]

    @staticmethod
    def spoint(bound):
        """pickProposal: empty, at scalar boundary `bound`."""
        return [11, bound]

    @staticmethod
    def shostile(rng):
        """pickProposal: FuzzInput.range as it is (hostile)."""
        return [13, *rng]

    @staticmethod
    def sagain(i=0):
        """pickProposal: where the i-th rejected suggestion of the storage
        was, of its kind."""
        return [0, i, 1]

    @staticmethod
    def run(attributes, a, b):
        """pickRuns: one run of the attribute values (indexes into
        Harness.attributeValues, valid ones) from scalar bound a to b."""
        return [len(attributes), *attributes, 1, a, b]

    @classmethod
    def proposal(cls, rng, kind="spelling", candidates=(), explanation=1):
        """A proposal: rng from srange, spoint, shostile or sagain (which
        keeps the rejected kind); candidates as (pieces, runs), runs None
        for a plain one or a list of run()."""
        out = list(rng)
        if rng[0] != 0:
            out.append(cls.SUGGESTION_KINDS[kind])
        out += [explanation, len(candidates)]
        for pieces, runs in candidates:
            out += [1, len(pieces), *pieces] if pieces else [0]
            out += [1] if runs is None else [0, len(runs), *[b for r in runs for b in r]]
        return out

    @staticmethod
    def _suggestion_id(pick):
        """("live", i) (by id), ("previewed",), ("dead", i), ("host", i),
        ("near", i, k) or ("extreme", k)."""
        kind, *rest = pick
        return {"previewed": [0], "live": [2], "dead": [11], "host": [13], "near": [14],
                "extreme": [15]}[kind] + rest

    @staticmethod
    def _candidate(candidate):
        """An index (mod the count), "past" (the count) or ("extreme", k)."""
        if candidate == "past":
            return [6]
        if isinstance(candidate, tuple):
            return [7, candidate[1]]
        return [0, candidate]

    def suggest(self, name, proposals):
        self.bytes += [255, 0]
        self.id(name)
        self.bytes += [len(proposals), *[b for p in proposals for b in p]]
        return self

    def suggest_in_context(self, context, proposals):
        self.bytes += [255, 4, 2, context, len(proposals), *[b for p in proposals for b in p]]
        return self

    def preview(self, pick, candidate):
        self.bytes += [255, 5, *self._suggestion_id(pick), *self._candidate(candidate)]
        return self

    def accept(self, pick, candidate=None, undo=False, redo=False):
        self.bytes += [255, 9 if undo else 7, *self._suggestion_id(pick)]
        self.bytes += [0] if candidate is None else [1, *self._candidate(candidate)]
        if undo:
            self.bytes.append(1 if redo else 0)
        return self

    def reject(self, pick):
        self.bytes += [255, 10, *self._suggestion_id(pick)]
        return self

    def suggestions(self, name, rng=None):
        """rng from vrange, point or thostile; None asks for all."""
        self.bytes += [255, 12]
        self.id(name)
        self.bytes += [0] if rng is None else [1, *rng]
        return self

    def suggestion(self, pick):
        self.bytes += [255, 13, *self._suggestion_id(pick)]
        return self

    def suggestions_in_context(self, context):
        self.bytes += [255, 14, 2, context]
        return self

    def edit_at_suggestion(self, live, where, pieces):
        """The person's edit at the live suggestion number `live`: where 0
        (insert at its start), 1 (at its end), 3 (across its start)."""
        self.bytes += [255, 15, live, where]
        self.text(pieces)
        return self


def document_seeds():
    R = DocumentProgram
    body = ascii("One two.") + [LF] + ascii("Three four.") + [LF]
    title = ascii("Draft") + [CRLF]
    emoji = [FAMILY, SPACE, FLAG_FR, E_COMBINING, PS] + ascii("ab") + [GRINNING, LF]
    return {
        # A session only the tool edits: replacements in a streaming phase,
        # undo, redo, revert.
        "tool-only-session": DocumentProgram(storages=[("title", title), ("body", body)])
        .select("body", vrange(4, 3)).start("userSelection")
        .state("interactiveResting").state("interactiveStreaming")
        .replace(0, vrange(0, 3), ascii("Uno"))
        .replace(0, vrange(4, 3), ascii("dos"))
        .state("interactiveResting").undo().redo().undo().revert().end().bytes,
        # Replacements that overlap and touch, then undo and revert.
        "overlapping-replacements": DocumentProgram(storages=[("body", body)])
        .start("fullDocument").replace(0, vrange(0, 3), ascii("Uno"))
        .replace(0, vrange(1, 4), ascii("XY")).replace(0, vrange(3, 0), ascii("!"))
        .undo().redo().revert().bytes,
        # The person types while the tool replaces with a basis; revert.
        "person-and-tool": DocumentProgram(keeps_all_history=True, storages=[("body", body)])
        .start("fullDocument").replace(0, vrange(4, 3), ascii("2"))
        .edit("body", vrange(0, 0), ascii("Zero "))
        .replace(0, vrange(9, 5, short=False), ascii("3"), basis=1)
        .replace(0, vrange(4, 3), ascii("x"), basis=1, merge=True)
        .revert().map_and_touched("body", 2, offset(3), short_range(offset(2), 4)).bytes,
        # A storage removed and added again under the same id mid-session.
        "remove-and-add-again": DocumentProgram(storages=[("title", title), ("body", body)])
        .start("fullDocument").replace(1, vrange(0, 3), ascii("ONE"))
        .remove("body").add("body", ascii("Hi there") + [LF]).undo().revert().bytes,
        # Sync peers editing on old versions, with the person in between.
        "origins": DocumentProgram(keeps_all_history=True, storages=[("body", emoji)])
        .pin("body").origin_edit("body", "peer", None, vrange(2, 1), ascii("P"))
        .edit("body", vrange(1, 2), [CRLF])
        .origin_edit("body", "a", 2, vrange(1, 4), ascii("Q"))
        .origin_edit("body", "peer", 1, vrange(0, 0), [GRINNING])
        .origin_edit("body", None, 3, vrange(3, 2), [])
        .map_and_touched("body", 4, offset(5), short_range(offset(1), 3)).bytes,
        # Hostile arguments everywhere.
        "hostile": DocumentProgram(storages=[("body", emoji), ("cell", [])])
        .exclude("body", vrange(2, 4)).visible("body", hrange(short_range(offset(3), 0)))
        .start("userSelection", surrounding=-1).start("visibleArea", surrounding="huge")
        .edit("body", hrange(two_offsets(hostile(15, 0), hostile(15, 11))), ascii("x"))
        .edit("body", hrange(short_range(interesting(0), 0)), [])
        .replace(0, vrange(1, 2), ascii("y"))
        .replace(0, hrange(short_range(interesting(0), 1)), ascii("z"), basis=3)
        .mark(0, short_range(offset(0), 2)).remove("title")
        .map_and_touched("cell", 9, hostile(15, 11), two_offsets(hostile(12, 0), offset(3)))
        .bytes,
        # The host's tracked ranges through every party's edits: underlines
        # that go when their word changes, a comment that grows after,
        # bookmarks' bias, many at one point, hostile requests, queries.
        "tracked-ranges": DocumentProgram(storages=[("body", body), ("cell", emoji)])
        .track("body", [vrange(0, 3), DocumentProgram.point(4), vrange(4, 3)], kind="spelling",
               on_touch="remove")
        .track("body", [vrange(9, 5, short=False)], kind="comment", expand="after")
        .track("body", [DocumentProgram.point(8), DocumentProgram.point(8)], bias="right")
        .track("cell", [vrange(0, 1), DocumentProgram.thostile(short_range(interesting(0), 0))])
        .track("title", [DocumentProgram.thostile(short_range(offset(0), 0))])
        .edit("body", vrange(14, 0), ascii("er"))
        .edit("body", vrange(5, 0), ascii("X"))
        .query("body").query("body", vrange(0, 4), kind="spelling")
        .query("body", DocumentProgram.point(8))
        .query("cell", DocumentProgram.thostile(short_range(interesting(0), 0)))
        .start("fullDocument").replace(0, vrange(9, 5, short=False), ascii("3"))
        .track_many("body", 70, 0x1234, piled=True, bias="right")
        .edit("body", vrange(0, 2), [])
        .undo().redo().revert()
        .untrack(("live", 0), ("extreme", 0)).untrack(("near", 1, 0)).untrack(("live", 2))
        .look_up(("dead", 0)).remove("body").look_up(("dead", 0)).query("body")
        .bytes,
        # Suggestions: previews that take each other back, accept (with undo
        # and redo right after, and without a session later), reject and the
        # ignored text, edits at their ends and inside, a tool's replacement
        # over one, hostile ids and candidates, queries.
        "review": DocumentProgram(storages=[("body", body), ("cell", emoji)])
        .suggest("body", [
            R.proposal(R.srange(0, 3), "spelling", [(ascii("Uno"), None), (ascii("1"), None)]),
            R.proposal(R.srange(4, 3), "grammar", [(ascii("2"), [R.run([0], 0, 1)])]),
            R.proposal(R.spoint(8), "style")])
        .suggest("cell", [
            R.proposal(R.srange(0, 2), "host's own", [([GRINNING, FLAG_JP], None), ([], None)])])
        .preview(("live", 0), 1).preview(("live", 1), 0)
        .accept(("live", 1), undo=True, redo=True)
        .reject(("live", 0))
        .suggest("body", [R.proposal(R.sagain(), candidates=[(ascii("x"), None)])])
        .suggest("body", [R.proposal(R.srange(9, 5, short=False), "style", [([CLEF], None)])])
        .edit_at_suggestion(1, 1, ascii("s")).edit_at_suggestion(1, 0, ascii("!"))
        .preview(("live", 2), 0).edit_at_suggestion(2, 3, [])
        .suggestions("body").suggestions("cell", vrange(0, 2)).suggestion(("dead", 0))
        .accept(("live", 0), "past").preview(("extreme", 0), 0).reject(("dead", 1))
        .accept(("live", 1), 0)
        .start("fullDocument").suggest_in_context(0, [R.proposal(R.srange(0, 2), "grammar")])
        .suggestions_in_context(0).replace(0, vrange(0, 3), ascii("A"))
        .undo().undo().redo().end().undo().undo().undo()
        .bytes,
        **{f"review-random-{n}": review_program(n) for n in range(8)},
        # The person's undo history (History.swift): typing and deleting
        # runs, groups closed, undo and redo of the person's and a peer's
        # groups through each other's edits.
        "history-typing": DocumentProgram(records_history=True, storages=[("body", body), ("cell", emoji)])
        .type_new("body", vrange(3, 0), ascii("ab")).type_more(ascii("cd")).type_more([GRINNING])
        .close().type_new("body", vrange(4, 2), []).delete_more(False).delete_more(True)
        .hundo().hundo().hredo()
        .type_new("cell", vrange(2, 1), ascii("X")).type_more(ascii("Y"))
        .type_new("body", vrange(5, 1), ascii("P"), origin="peer").type_more(ascii("Q"), origin="peer")
        .edit("body", vrange(4, 0), ascii("!"))
        .close().type_at("body", "run", ascii("@"))
        .type_at("body", "seam", ascii("s"), origin="a").close(origin="a")
        .type_new("body", vrange(6, 3), [], origin="a")
        .undo_origin("peer").hundo().redo_origin("peer").hredo().undo_origin("a")
        .hundo().hundo().hundo().hundo().hredo().hredo().undo_origin("peer").undo_origin("peer")
        .bytes,
        # The person's groups on one history with the session's and an
        # accepted suggestion: an undo takes the typing first.
        "history-and-tool": DocumentProgram(records_history=True, storages=[("title", title), ("body", body)])
        .type_new("body", vrange(0, 0), ascii("Hi ")).type_more(ascii("x"))
        .start("fullDocument").replace(1, vrange(4, 3), ascii("2"))
        .type_new("body", vrange(8, 0), ascii("z"))
        .hundo().hundo().hundo().hredo().hredo()
        .state("interactiveResting").state("interactiveStreaming")
        .replace(0, vrange(0, 2), ascii("DR"))
        .type_new("title", vrange(3, 0), ascii("q")).type_more(ascii("w"))
        .replace(0, vrange(4, 1), ascii("!")).type_more(ascii("e"))
        .state("interactiveResting")
        .hundo().hundo().revert().hredo()
        .suggest("body", [R.proposal(R.srange(0, 2), "spelling", [(ascii("Yo"), None)])])
        .accept(("live", 0)).type_new("body", vrange(2, 0), [GRINNING])
        .hundo().hundo().hredo().end().hundo().hundo().hundo().hundo()
        .bytes,
        # Recording off and on again, and limits that drop the oldest groups.
        "history-limits": DocumentProgram(records_history=True, storages=[("body", body)])
        .type_new("body", vrange(0, 0), ascii("a")).close().type_new("body", vrange(2, 1), [])
        .close().type_new("body", vrange(3, 0), ascii("b"))
        .toggle_recording().type_more(ascii("c")).toggle_recording().type_more(ascii("d"))
        .type_new("body", vrange(5, 0), ascii("P"), origin="peer")
        .max_groups(3).hundo().max_groups(1).hundo().hundo().hredo().max_groups(0)
        .type_new("body", vrange(1, 0), ascii("e")).hundo().max_groups(0)
        .undo_origin("peer").bytes,
        **{f"history-random-{n}": history_program(n) for n in range(4)},
    }


def history_program(n):
    """A random program of the person's and peers' runs, closes, undo and
    redo of each history, with plain and transformed edits, a session's
    replacements, suggestions accepted and storages removed."""
    r = random.Random(2000 + n)
    R = DocumentProgram
    body = ascii("One two.") + [LF] + ascii("Three four.") + [LF]
    emoji = [FAMILY, SPACE, FLAG_FR, E_COMBINING, PS] + ascii("ab") + [GRINNING, LF]
    p = R(keeps_all_history=n % 2 == 0, records_history=True,
          storages=[("body", body), ("cell", emoji)])
    pieces = [GRINNING, FLAG_JP, CLEF, E_COMBINING, FAMILY, CRLF, *ascii("xyZ ")]
    origins = [None, None, None, "peer", "a"]
    for _ in range(60):
        name = r.choice(["body", "cell"])
        origin = r.choice(origins)
        k = r.random()
        if k < 0.15:
            p.type_new(name, vrange(r.randrange(12), r.randrange(3)),
                       [r.choice(pieces) for _ in range(r.choice([0, 1, 1, 2]))], origin=origin)
        elif k < 0.35:
            p.type_more([r.choice(pieces)], origin=origin)
        elif k < 0.45:
            p.delete_more(r.random() < 0.5, origin=origin)
        elif k < 0.48:
            p.close(origin=origin)
            p.type_at(name, r.choice(["run", "seam"]),
                      [r.choice(pieces)] if r.random() < 0.6 else [], back=r.random() < 0.5,
                      origin=origin)
        elif k < 0.50:
            p.close(origin=origin)
        elif k < 0.51:
            p.toggle_recording()
        elif k < 0.52:
            p.max_groups(r.randrange(8))
        elif k < 0.62:
            p.hundo() if origin is None else p.undo_origin(origin)
        elif k < 0.70:
            p.hredo() if origin is None else p.redo_origin(origin)
        elif k < 0.76:
            p.edit(name, vrange(r.randrange(12), r.randrange(3)), [r.choice(pieces)])
        elif k < 0.80:
            p.origin_edit(name, r.choice(["peer", "a", None]), r.choice([None, 1, 2]),
                          vrange(r.randrange(12), r.randrange(3)), [r.choice(pieces)])
        elif k < 0.84:
            p.start("fullDocument")
        elif k < 0.90:
            p.replace(r.randrange(2), vrange(r.randrange(8), r.randrange(3)), [r.choice(pieces)])
        elif k < 0.94:
            p.suggest(name, [R.proposal(R.srange(r.randrange(8), r.randrange(1, 3)), "spelling",
                                        [([r.choice(pieces)], None)])])
            p.accept(("live", 0))
        elif k < 0.96:
            p.revert()
        elif k < 0.98:
            p.remove(name).add(name, ascii("Back ") + [r.choice(pieces)])
        else:
            p.end()
    return p.bytes


def review_program(n):
    """A random program of mostly review operations (suggest, preview,
    accept with undo and redo, reject, edits at and inside suggestions),
    with the person's edits, a session's replacements, undo and redo."""
    r = random.Random(1000 + n)
    R = DocumentProgram
    body = ascii("One two.") + [LF] + ascii("Three four.") + [LF]
    emoji = [FAMILY, SPACE, FLAG_FR, E_COMBINING, PS] + ascii("ab") + [GRINNING, LF]
    p = R(keeps_all_history=n % 2 == 0, storages=[("body", body), ("cell", emoji)])
    pieces = [GRINNING, FLAG_JP, CLEF, E_COMBINING, FAMILY, CRLF, *ascii("xyZ ")]

    def candidates():
        out = []
        for _ in range(r.choice([0, 1, 1, 2, 3])):
            text_ = [r.choice(pieces) for _ in range(r.randrange(0, 4))]
            runs = [R.run([r.choice([0, 1, 2, 6])], 0, r.randrange(1, 3))] if text_ and r.random() < 0.3 else None
            out.append((text_, runs))
        return out

    def proposal():
        rng = r.choice([R.srange(r.randrange(12), r.randrange(4)), R.spoint(r.randrange(12))])
        return R.proposal(rng, r.choice(list(R.SUGGESTION_KINDS)), candidates())

    for _ in range(40):
        name = r.choice(["body", "cell"])
        k = r.random()
        if k < 0.25:
            p.suggest(name, [proposal() for _ in range(r.randrange(1, 4))])
        elif k < 0.40:
            p.preview(("live", r.randrange(8)), r.randrange(4))
        elif k < 0.55:
            p.accept(("live", r.randrange(8)), r.choice([None, r.randrange(4)]),
                     undo=r.random() < 0.5, redo=r.random() < 0.5)
        elif k < 0.65:
            p.reject(("live", r.randrange(8)))
        elif k < 0.72:
            p.edit_at_suggestion(r.randrange(8), r.choice([0, 1, 3]), [r.choice(pieces)])
        elif k < 0.78:
            p.edit(name, vrange(r.randrange(12), r.randrange(3)), [r.choice(pieces)])
        elif k < 0.84:
            p.undo()
        elif k < 0.88:
            p.redo()
        elif k < 0.92:
            p.start("fullDocument")
        elif k < 0.97:
            p.replace(r.randrange(2), vrange(r.randrange(8), r.randrange(3)), [r.choice(pieces)])
        else:
            p.suggestions(name)
    return p.bytes


def document_regressions():
    """Reproducers of FuzzDocument findings, spelled as programs, with what
    each shows (the first line of its .txt)."""
    body = ascii("One two.") + [LF] + ascii("Three four.") + [LF]
    return {
        "revert-overlapping-replacements": (
            DocumentProgram(storages=[("body", body)]).start("fullDocument")
            .replace(0, vrange(0, 3), ascii("Uno")).replace(0, vrange(1, 4), ascii("XY"))
            .revert().bytes,
            "revert() after two overlapping tool replacements gave 'Oneno two.' instead of the"
            " text at the session start (fixed in c207320)"),
        "undo-overlapping-replacements": (
            DocumentProgram(storages=[("body", body)]).start("fullDocument")
            .replace(0, vrange(0, 3), ascii("Uno")).replace(0, vrange(1, 4), ascii("XY"))
            .undo().undo().bytes,
            "undoing both groups of two overlapping tool replacements did not give back the"
            " session-start text (fixed in c207320)"),
        "redo-after-revert": (
            DocumentProgram(storages=[("body", [FAMILY])]).start("fullDocument")
            .replace(0, vrange(2, 0), ascii("a")).revert().undo().redo().bytes,
            "replace, revert, undo, redo: redo put the reverted replacement back (inside the"
            " family emoji) instead of giving back the text before the undo (fixed in b64beeb)"),
        "transformed-deletion-empty-record": (
            DocumentProgram(keeps_all_history=True, storages=[("body", ascii("abc"))])
            .edit("body", vrange(1, 0), ascii("XY")).edit("body", vrange(1, 2), [])
            .origin_edit("body", "peer", 1, vrange(1, 2), []).bytes,
            "BY DESIGN (the oracle now allows it for transformed edits, see"
            " docs/reliability.md): a peer's deletion (basis 1) of text the person already"
            " deleted is transformed to nothing, yet makes version 3 with an empty change record"
            " (1..<1, no text): a version that changes nothing (also with a person's edit on an"
            " old basis)"),
        "merge-through-own-undo-not-reverted": (
            DocumentProgram(storages=[("body", ascii("abcdef"))]).start("fullDocument")
            .replace(0, vrange(2, 1), ascii("XY")).undo()
            .replace(0, vrange(3, 1), ascii("Z"), basis=1, merge=True).revert().bytes,
            "in a tool-only session, a replacement merged (basis 1, .merge) through the"
            " session's own undo was marked touched (the undo is recorded as the person's edit)"
            " and revert() left it: 'abcZdef', not the session-start 'abcdef' (fixed in 103e31a)"),
        "merge-through-own-revert-not-reverted": (
            DocumentProgram(storages=[("title", ascii("'"))]).start("fullDocument")
            .replace(0, vrange(0, 0), ascii("a")).revert().revert()
            .replace(0, vrange(0, 1), ascii("a"), basis=1, merge=True).revert().bytes,
            "the same through the session's own revert: replace, revert, then a replacement"
            " merged on context version 1; revert() left \"a'\", not \"'\" (fixed in 103e31a)"),
        "merge-split-by-own-revert-not-reverted": (
            DocumentProgram(storages=[("body", ascii("abcdef"))]).start("fullDocument")
            .replace(0, vrange(2, 1), ascii("X"), basis="current").revert()
            .replace(0, vrange(0, 5, short=False), ascii("Z"), basis=2, merge=True).revert().bytes,
            "in a tool-only session: replace 2..<3 with X, revert, then replace 0..<5 on"
            " context version 0 with .merge: the session's own revert counts as the person's"
            " edit, the merge keeps its 'c' ('Zcf', in pieces) and revert() declined: 'Zcf', not"
            " 'abcdef' (fixed in b743cbd: each piece is a replacement of its own)"),
        "redo-after-revert-later": (
            DocumentProgram(storages=[("body", [FAMILY] + ascii("a"))]).start("fullDocument")
            .replace(0, vrange(0, 0), ascii("a")).revert().replace(0, vrange(3, 1), ascii("a"))
            .undo().undo().redo().bytes,
            "FIXED in 6725b80: replace, revert, replace, undo, undo, redo: the redo of the first"
            " group puts its reverted replacement back, inside the family emoji"),
        "readd-inherits-history": (
            DocumentProgram(storages=[("title", ascii("Draft") + [CRLF]), ("body", body)])
            .start("fullDocument").replace(1, vrange(0, 3), ascii("ONE"))
            .remove("body").add("body", ascii("Hi there") + [LF]).undo().revert().bytes,
            "a storage removed and added again under the same id: undo() swapped the old"
            " session's text into the new storage, 'Hi there' -> 'Onethere' (fixed in c207320)"),
        "readd-undo-throws": (
            DocumentProgram(storages=[("body", body)]).start("fullDocument")
            .replace(0, vrange(5, 0), ascii("ab")).remove("body").add("body", []).undo().bytes,
            "a storage removed and added again empty: undo() threw invalidRange (the old"
            " session's replacement at 5) instead of ignoring it (fixed in c207320)"),
        "empty-edit-inside-pair": (
            DocumentProgram(storages=[("body", [GRINNING] + ascii("a"))])
            .edit("body", hrange(short_range(interesting(0), 0)), []).bytes,
            "edit(1..<1, with: \"\") inside a surrogate pair was accepted and made a version"
            " (fixed in 83f42b1 / 7734caf)"),
        "empty-replacement-no-version": (
            DocumentProgram(storages=[("body", body)]).start("fullDocument")
            .replace(0, vrange(5, 0), []).bytes,
            "an empty replacement of an empty range made a version and an empty change record"
            " (fixed in 7734caf)"),
        "touched-out-of-bounds": (
            DocumentProgram(storages=[("body", ascii("ab"))])
            .map_and_touched("body", 0, offset(0), two_offsets(offset(0), hostile(13, 5))).bytes,
            "touched(\"body\", 0..<9, since: current) answers false for a range past the end of"
            " the text (2 units) instead of a typed error (DESIGN, Bad input; map() throws"
            " invalidRange for the same offsets; fixed in b64beeb)"),
        "setExcluded-inside-pair": (
            DocumentProgram(storages=[("body", [GRINNING] + ascii("a"))])
            .exclude("body", hrange(short_range(interesting(0), 1))).bytes,
            "setExcluded(true, \"body\", range: 1..<2) on \"\U0001F600a\" is accepted: a range"
            " inside a surrogate pair (DESIGN, Bad input: a typed error; fixed in b64beeb)"),
        "mark-inside-pair": (
            DocumentProgram(storages=[("body", [GRINNING] + ascii("a"))]).start("fullDocument")
            .mark(0, short_range(offset(1), 1)).bytes,
            "mark(context:, ranges: [1..<2], as: .hidden) on \"\U0001F600a\" is accepted: a range"
            " inside a surrogate pair (DESIGN, Bad input: a typed error; fixed in b64beeb)"),
        "tracked-all-misses-end": (
            DocumentProgram(storages=[("cell", ascii("a"))])
            .track("cell", [DocumentProgram.point(1)]).query("cell").bytes,
            "trackedRanges(in: \"cell\") (no range: all of them) on \"a\" left out the range"
            " tracked at 1..<1, empty at the end of the text: it queried 0..<length, whose"
            " overlap rule admits an empty range only before the query's end (fixed in 877a41d)"),
        "undo-in-empty-streaming-group": (
            DocumentProgram(storages=[("title", ascii("Draft") + [CRLF])]).start("fullDocument")
            .state("interactiveResting").state("interactiveStreaming").undo()
            .replace(0, vrange(3, 3), []).replace(0, vrange(3, 1), []).undo().bytes,
            "undo() in a streaming phase that had streamed nothing yet ended the phase's group:"
            " the two replacements streamed after it made a group each, and one undo() gave"
            " 'Dra\\n', not the session-start 'Draft\\r\\n' (fixed in 65a8971)"),
        "readd-replacement-local": (
            DocumentProgram(storages=[("body", ascii("abc"))]).start("fullDocument")
            .replace(0, vrange(1, 0), ascii("x")).remove("body").add("body", ascii("q"))
            .track("body", [DocumentProgram.point(0)] * 3).edit("body", vrange(0, 0), ascii("y"))
            .bytes,
            "a storage removed in a session and added again: once it tracked a range under the"
            " number of its old life's replacement, its next edit trapped in _invariantCheck ('a"
            " replacement tracked while broken, or not'; fixed in 65a8971)"),
        "settle-other-storage": (
            DocumentProgram(storages=[("body", ascii("one two")), ("cell", ascii("one two"))])
            .suggest("cell", [DocumentProgram.proposal(DocumentProgram.srange(0, 3),
                                                       candidates=[(ascii("uno"), None)])])
            .suggest("body", [DocumentProgram.proposal(DocumentProgram.srange(1, 1),
                                                       candidates=[(ascii("N"), None)])])
            .preview(("live", 1), 0).preview(("live", 0), 0).bytes,
            "previewing a suggestion in 'body' while one in 'cell' was previewed compared their"
            " ranges as if in one storage: the preview in 'cell' stayed as text and its"
            " suggestion was dropped (result.tracked.removed named it) instead of being taken"
            " back (fixed in 65a8971)"),
    }


def repl_seeds():
    """JSON-lines sessions, after FuzzREPL's two configuration bytes (the
    reader's chunk size and line length limit)."""

    def session(lines, chunk=7, limit=0xEF):
        return bytes([chunk - 1, limit]) + "".join(line + "\n" for line in lines).encode()

    protocol_example = [
        '{"cmd":"add","storage":"title","text":"Draft\\n"}',
        '{"cmd":"add","storage":"body","text":"One two.\\nThree fuor.\\nFive.\\n"}',
        '{"cmd":"select","ranges":[{"storage":"body","offset":15,"length":4}]}',
        '{"cmd":"contexts","scope":"userSelection"}',
        '{"cmd":"edit","storage":"body","offset":0,"length":0,"text":"Zero. "}',
        '{"cmd":"storages"}',
        '{"cmd":"text","storage":"body","range":{"offset":6,"length":4}}',
        '{"cmd":"map","storage":"body","offset":15,"from":0,"assoc":-1}',
        '{"cmd":"paragraph","storage":"body","offset":9}',
        '{"cmd":"graphemes","storage":"title"}',
        '{"cmd":"locate","offset":7}',
        '{"cmd":"undo"}',
        '{"cmd":"revert"}',
        '{"cmd":"end"}',
        '{"cmd":"quit"}',
        '{"cmd":"storages"}',
    ]
    hostile = [
        '{"cmd":"add","storage":"body","text":"\\ud83d\\ude00a\\r\\n\\u2029b"}',
        '{"cmd":"edit","storage":"body","offset":1,"length":0,"text":"x"}',
        '{"cmd":"edit","storage":"body","offset":9223372036854775807,"length":1,"text":""}',
        '{"cmd":"edit","storage":"body","offset":-1,"length":-5,"text":"y","basis":-1}',
        '{"cmd":"exclude","storage":"body","offset":0,"length":2,"unit":"utf8"}',
        '{"cmd":"contexts","scope":"fullDocument","surroundingParagraphs":-9223372036854775808}',
        '{"cmd":"replace","context":"not-a-uuid","offset":0,"length":1,"text":"z"}',
        '{"cmd":"select","from":{"storage":"body","offset":1},"to":{"storage":"nope","offset":0}}',
        '{"cmd":"map","storage":"body","offset":1e400,"from":0}',
        '{"cmd":"state","state":"interactiveStreaming"}',
        '{"cmd":"edit","storage":"body","offset":0,"length":0,"text":"\\ud800"}',
        '{"cmd":"add","storage":"x","path":"/dev/zero"}',
        '{"cmd":"add","storage":"y","path":"Data/invalid-utf8.txt"}',
        '[1,2,3]',
        '{"cmd":',
        '',
        '{"cmd":"text","storage":"body","unit":"klingon"}',
    ]
    files = [
        '{"cmd":"add","storage":"t","path":"Data/text.txt"}',
        '{"cmd":"replay","storage":"r","path":"Data/tiny-trace.json"}',
        '{"cmd":"replay","storage":"g","path":"Data/tiny-trace.json.gz"}',
        '{"cmd":"replay","storage":"b","path":"Data/bad-trace.json"}',
        '{"cmd":"replay","storage":"r","path":"Data/tiny-trace.json"}',
        '{"cmd":"contexts","scope":"fullDocument"}',
        '{"cmd":"storages"}',
    ]
    session_lines = [
        '{"cmd":"add","storage":"body","text":"One two.\\nThree four.\\n"}',
        '{"cmd":"visible","ranges":[{"storage":"body","offset":2,"length":0}]}',
        '{"cmd":"contexts","scope":"visibleArea"}',
        '{"cmd":"state","state":"interactiveResting"}',
        '{"cmd":"state","state":"interactiveStreaming"}',
        '{"cmd":"undo"}',
        '{"cmd":"redo"}',
        '{"cmd":"state","state":"inactive"}',
        '{"cmd":"toolSelect","context":"00000000-0000-0000-0000-000000000000","ranges":[]}',
    ]
    invalid_utf8 = bytes([0, 0xEF]) + b'{"cmd":"add","storage":"\xff","text":"a"}\n\xc0\x80\r\n'
    # Rich text: attributes with a text, over a range, with an edit, in
    # contexts under result options, with a replacement, and hostile ones.
    attributes = [
        '{"cmd":"add","storage":"body","text":"Groceries\\nmilk and bread\\n","attributes":['
        '{"offset":0,"length":10,"attributes":{"presentationIntent":[{"kind":"header",'
        '"identity":1,"level":1}]}},{"offset":10,"length":4,"attributes":{'
        '"inlinePresentationIntent":["stronglyEmphasized"],"presentationIntent":['
        '{"kind":"unorderedList","identity":2},{"kind":"listItem","identity":3,"ordinal":1}]}}]}',
        '{"cmd":"setAttributes","storage":"body","offset":15,"length":3,'
        '"attributes":{"link":"https://example.com","font":"Menlo","size":12,"bold":true}}',
        '{"cmd":"edit","storage":"body","offset":9,"length":0,"text":"!",'
        '"attributes":{"inlinePresentationIntent":["emphasized","code"]}}',
        '{"cmd":"text","storage":"body","attributes":true}',
        '{"cmd":"select","ranges":[{"storage":"body","offset":16,"length":3}]}',
        '{"cmd":"contexts","scope":"userSelection","resultOptions":["richText","presentationIntent","list","table"]}',
        '{"cmd":"replace","context":"00000000-0000-0000-0000-000000000000","offset":0,"length":1,'
        '"text":"x","attributes":[{"offset":0,"length":1,"attributes":{"link":"u"}}]}',
        '{"cmd":"setAttributes","storage":"body","offset":0,"length":2,"attributes":{"link":3}}',
        '{"cmd":"setAttributes","storage":"body","offset":0,"length":2,'
        '"attributes":{"presentationIntent":[{"kind":"table","identity":1,"columns":["diagonal"]}]}}',
        '{"cmd":"add","storage":"t","text":"a\\ud83d\\ude00b","attributes":['
        '{"offset":2,"length":1,"attributes":{"link":"x"}}]}',
        '{"cmd":"setAttributes","storage":"body","offset":0,"length":4,"attributes":{"link":null}}',
        '{"cmd":"text","storage":"body","attributes":true}',
    ]
    return {
        "protocol-example": session(protocol_example),
        "hostile-requests": session(hostile, chunk=1),
        "files-and-traces": session(files, chunk=64),
        "session": session(session_lines, chunk=3),
        "long-lines": session(protocol_example[:3], chunk=5, limit=2) + b"\r\r\n\n" + b"x" * 80,
        "invalid-utf8": invalid_utf8,
        "attributes": session(attributes, chunk=11),
    }


SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Data", "markdown",
                    "gfm-spec-0.29.txt")


def spec_sections():
    """The GFM spec's examples (Tests/Data/markdown), as the Markdown tests
    read them ("→" is a tab), grouped by section: [(section, [markdown])]."""
    fence = "`" * 32
    sections, section, lines = [], "", []
    in_example = in_markdown = False
    with open(SPEC, encoding="utf-8") as f:
        text = f.read()
    for line in text.split("\n"):
        if not in_example and line.startswith("#"):
            section = line.lstrip("# ")
        if line.startswith(fence + " example"):
            in_example = in_markdown = True
            lines = []
        elif in_example and line == fence:
            in_example = False
        elif in_example and in_markdown and line == ".":
            in_markdown = False
            markdown = "\n".join(lines) + ("\n" if lines else "")
            if not sections or sections[-1][0] != section:
                sections.append((section, []))
            sections[-1][1].append(markdown.replace("\u2192", "\t"))
        elif in_example and in_markdown:
            lines.append(line)
    return sections


def markdown_seeds():
    """FuzzMarkdown: half (a) reads the bytes after an even first byte as
    Markdown (a seed starts with LF: the rest is the Markdown as written);
    half (b) drives the generator with the bytes after an odd one."""

    def markdown(text):
        return b"\n" + text.encode()

    seeds = {}
    # The spec's examples, a seed per section (at most 16 KB, run.sh's
    # -max_len for this target).
    for section, examples in spec_sections():
        name = "spec-" + re.sub(r"[^a-z0-9]+", "-", section.lower()).strip("-")
        seeds[name] = markdown("\n".join(examples))[:16384]
    seeds["document"] = markdown(
        "# Release notes\n\nThe *engine* now reads **GitHub-flavoured** Markdown: `AttributedText(markdown:)`,\n"
        "with ~~no~~ full round trips. See [the design](docs/DESIGN.md \"Design\") or <https://example.com>,\n"
        "www.example.com, and write to team@example.com.\\\nA hard break, then a soft\none.\n\n"
        "Setext header\n=============\n\n> A quote with a list:\n> - one\n> - two\n>   1. nested\n>   2. ordered\n>\n"
        "> > and a quote inside\n\n3) three\n4) four\n\n- [ ] task\n- [x] done\n\n"
        "| Left | Centre | Right |\n|:-----|:------:|------:|\n| `a|b` | **b** | [c](u) |\n| \\| pipe | &amp; | 3 |\n\n"
        "```swift title=\"x\"\nlet x = \"`\"\n```\n\n~~~\n```\n~~~\n\n    indented code\n\n***\n\n"
        "<div class=\"note\">\n*not* emphasis\n</div>\n\nInline <b>HTML</b> and <!-- a comment -->.\n\n"
        "![an image](i.png) &copy; &#10; &#x1F600; \\* \\_ 2\\. 10\\) \\# \\> \\- \\+\n\n"
        "[ref]: https://example.com/ref\n\n[a reference][ref] and [ref].\n")
    seeds["emphasis"] = markdown(
        "*a* _b_ **c** __d__ ***e*** ~~f~~ ~g~ *a **b** c* **a *b* c** _a_b_ *a*b* **a**b "
        "a**b**c ~~a *b* c~~ *~~a~~* ***a** b* *a **b*** `*a*` [*a*](u) *[a](u)*\n")
    seeds["lists"] = markdown(
        "- a\n- b\n\n  continued\n- c\n  * d\n    + e\n\n1. one\n1. two\n\n7. seven\n\n-\n- after empty\n\n"
        "* * *\n\n- - -\n\n- # header item\n- ```\n  code item\n  ```\n- > quote item\n")
    seeds["tables"] = markdown(
        "| a |\n| - |\n\n| a | b | c |\n| :- | :-: | -: |\n| 1 | 2 |\n| 1 | 2 | 3 | 4 |\n\n"
        "a | b\n--|--\nc | d\n\n> | q |\n> |---|\n> | r |\n\n- | in | list |\n  | -- | -- |\n  |  |  |\n")
    seeds["code"] = markdown(
        "```\n```\n\n```\n\n\n```\n\n```` a b `c`\n```\n````\n\n~~~ a`b\nx\n~~~\n\n"
        "`` ` `` ` `` ` `  ` ` a ` `\ta\t`\n")
    seeds["breaks-and-references"] = markdown(
        "a&#10;b &#13; c &#8233; d\n\n# h&#10;i\n\n| x&#10;y |\n| - |\n\n&#32;lead and trail&#32;\n\n"
        "&#9;tab&#9;\n\n&#65279;bom\n\n&#0; nul &#xD800; &#1114112;\n")
    # Deep nesting and long runs of one character: bounded time and memory.
    seeds["deep-quotes"] = markdown(">" * 1000 + " a\n")
    seeds["deep-quote-paragraphs"] = markdown("".join(">" * i + " a\n" for i in range(1, 150)))
    seeds["deep-bullets"] = markdown("- " * 1000 + "a\n")
    seeds["deep-ordered"] = markdown("1. " * 1000 + "a\n")
    seeds["deep-indented-list"] = markdown("".join("  " * i + "- a\n" for i in range(100)))
    seeds["deep-quote-list"] = markdown("> - " * 500 + "a\n")
    seeds["stars-10000"] = markdown("*" * 10000 + "a")
    seeds["underscores"] = markdown("_" * 6000 + "a" + "_" * 6000)
    seeds["brackets"] = markdown("[" * 6000 + "a" + "](b)" * 2000)
    seeds["nested-emphasis"] = markdown("*a **b " * 1000 + "** *" * 1000)
    seeds["backticks"] = markdown("`" * 5000 + "a" + "``" * 3000)
    seeds["wide-table"] = markdown("|" + "a|" * 1500 + "\n|" + "-|" * 1500 + "\n|" + "b|" * 1500 + "\n")
    seeds["long-table"] = markdown("| a | b |\n| - | - |\n" + "| c | d |\n" * 1000)
    seeds["html-divs"] = markdown("<div>" * 3000)
    seeds["lazy-quote"] = markdown("> a\n" + "b\n" * 5000)
    # The generator, from fixed bytes.
    for n, size in enumerate((16, 64, 256, 1024, 4096)):
        seeds[f"generated-{n}"] = b"\x01" + random.Random(n).randbytes(size)
    return seeds


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "Corpus")
    targets = {
        "FuzzRope": rope_seeds(),
        "FuzzGraphemes": grapheme_seeds(),
        "FuzzDocument": document_seeds(),
        "FuzzREPL": repl_seeds(),
        "FuzzMarkdown": markdown_seeds(),
    }
    for target, seeds in targets.items():
        directory = os.path.join(root, target)
        os.makedirs(directory, exist_ok=True)
        for name, data in seeds.items():
            payload = data if isinstance(data, (bytes, bytearray)) else bytes(b & 0xFF for b in data)
            with open(os.path.join(directory, name), "wb") as f:
                f.write(payload)
        print(f"{target}: {len(seeds)} seeds in {directory}")
    regressions_root = os.path.join(os.path.dirname(os.path.abspath(root)), "Regressions")
    for target, regressions in {"FuzzDocument": document_regressions()}.items():
        directory = os.path.join(regressions_root, target)
        os.makedirs(directory, exist_ok=True)
        for name, (data, what) in regressions.items():
            with open(os.path.join(directory, name), "wb") as f:
                f.write(bytes(b & 0xFF for b in data))
            with open(os.path.join(directory, name + ".txt"), "w") as f:
                f.write(what + "\n")
        print(f"{target}: {len(regressions)} regressions in {directory}")


if __name__ == "__main__":
    main()
