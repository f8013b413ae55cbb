"""Turn raw and ranking-list names into comparable parts (the fuzzy strategy's tokeniser).

Hand records spell one player many ways: "Balicki", "BALICKI Cezary", "Clemens Wanha#184195",
"LallH" (vugraph: surname plus the given name's initial), "v.Prooijen", "Zimmerm." (cut short),
"LEVIN Robert (Bobby)". A raw name is parsed into one or more :class:`Reading` s (which token is
the surname is not always knowable), a ranking entry into one :class:`EntryName`.

All comparison keys are folded (`ddrank.text.fold`): accents removed (NFKD), ø/ł/ß/... spelled
out, lower case.
The ranking list itself lost some accented letters ("J r me Rombaut", "Herv  Mouiel"); such gaps
become a one-letter wildcard ``?`` in the entry's keys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ddrank.names.rankings import RankingEntry
from ddrank.text import fold

# Longer raw strings are not names (a corrupt field, a comment): they get no match at once.
MAX_NAME_LENGTH = 200

PARTICLES = frozenset(
    {
        "de", "di", "da", "das", "do", "dos", "du", "del", "della", "delle", "dello", "der",
        "den", "van", "vander", "vd", "von", "la", "le", "lo", "ten", "ter", "te", "el", "al",
        "st", "mac", "mc", "d", "l", "o",
    }
)  # fmt: skip
_GENERATION = frozenset({"jr", "jnr", "junior", "sr", "snr", "senior", "ii", "iii", "iv"})

# Key weights: how much a surname comparison counts when it goes through a secondary key.
W_PRIMARY = 1.0
W_ALT = 0.95  # a surname in parentheses at the end of an entry (maiden or married name)
W_MIDDLE = 0.97  # an entry's second-to-last token taken as (first) surname
W_PART = 0.92  # one part of a hyphenated or multi-word surname, or the surname without particle
W_SWAPPED = 0.92  # whole reading with given name and surname swapped


def key_of(token: str) -> str:
    """A comparison key: folded, lower case, letters (and the ``?`` wildcard) only."""
    return re.sub(r"[^a-z?]", "", fold(token).lower())


@dataclass(frozen=True, slots=True)
class SurnameKey:
    """One way of writing the surname, with its weight; ``strong`` keys may match on their own."""

    key: str
    weight: float
    strong: bool
    middle: bool = False  # an entry's middle token: it then no longer counts as a given name


@dataclass(frozen=True, slots=True)
class Reading:
    """One interpretation of a raw name: which part is the surname, which the given names."""

    surnames: tuple[SurnameKey, ...]
    given: tuple[str, ...]  # folded full given names, in order
    initials: tuple[str, ...]  # single letters
    nicknames: tuple[str, ...]
    truncated: bool = False  # the surname was cut short ("Zimmerm.")
    weight: float = 1.0  # W_SWAPPED for the order-swapped reading

    @property
    def has_given(self) -> bool:
        return bool(self.given or self.initials or self.nicknames)

    @property
    def given_joined(self) -> str:
        return "".join(self.given)


@dataclass(frozen=True, slots=True)
class EntryName:
    """A ranking entry's name parts."""

    entry: RankingEntry
    surnames: tuple[SurnameKey, ...]
    given: tuple[str, ...]
    initials: tuple[str, ...]
    nicknames: tuple[str, ...]
    given_joined: str  # all given-side letters in order, for spellings that split or join words
    tokens: frozenset[str]  # every folded token, for the context step's weak evidence

    @property
    def has_given(self) -> bool:
        return bool(self.given or self.initials or self.nicknames)


# ----------------------------------------------------------------------------- helpers


def _is_initial(token: str) -> bool:
    letters = token.replace(".", "")
    return (
        len(letters) >= 1
        and letters.isalpha()
        and (len(letters) == 1 or (token.count(".") >= len(letters) and len(letters) <= 3))
    )


def _initials_of(token: str) -> tuple[str, ...]:
    return tuple(ch.lower() for ch in fold(token) if ch.isalpha())


def _is_caps(token: str) -> bool:
    letters = [ch for ch in token if ch.isalpha()]
    return len(letters) >= 2 and all(ch.isupper() for ch in letters)


def _surname_keys(tokens: list[str], strong: bool = True) -> list[SurnameKey]:
    """Keys for a surname written as ``tokens`` (particles included)."""
    keys: list[SurnameKey] = []
    full = "".join(key_of(t) for t in tokens)
    if not full:
        return keys
    keys.append(SurnameKey(full, W_PRIMARY, strong))
    core = [t for t in tokens if key_of(t) not in PARTICLES]
    core_key = "".join(key_of(t) for t in core)
    if core_key and core_key != full:
        keys.append(SurnameKey(core_key, W_PART, strong))
    parts = [key_of(p) for t in core for p in re.split(r"[-\s]+", t)]
    parts = [p for p in parts if len(p) >= 3 and p not in PARTICLES]
    if len(parts) > 1:
        keys.extend(SurnameKey(p, W_PART, False) for p in parts)
    return _dedupe(keys)


def _dedupe(keys: list[SurnameKey]) -> list[SurnameKey]:
    best: dict[str, SurnameKey] = {}
    for k in keys:
        old = best.get(k.key)
        if old is None or (k.weight, k.strong) > (old.weight, old.strong):
            best[k.key] = k
    return list(best.values())


def _given_parts(tokens: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Split given-side tokens into full names and initials (hyphenated names split)."""
    given: list[str] = []
    initials: list[str] = []
    for token in tokens:
        if _is_initial(token):
            initials.extend(_initials_of(token))
            continue
        for part in re.split(r"-", token):
            k = key_of(part)
            if len(k) == 1:
                initials.append(k)
            elif k:
                given.append(k)
    return tuple(given), tuple(initials)


# ----------------------------------------------------------------------------- raw names


def clean_raw(raw: str) -> tuple[str, tuple[str, ...]]:
    """Drop id suffixes, digits and generation suffixes; pull out nicknames in (...) or quotes."""
    text = fold(raw)
    text = text.split("#", 1)[0]
    nicknames = [key_of(n) for n in re.findall(r"\(([^)]*)\)", text)]
    text = re.sub(r"\([^)]*\)?", " ", text)
    quoted = re.findall(r"(?:^|\s)[\"']([^\"']+)[\"'](?=\s|$)", text)
    nicknames += [key_of(n) for n in quoted]
    text = re.sub(r"(?:^|\s)[\"'][^\"']+[\"'](?=\s|$)", " ", text)
    text = re.sub(r"[0-9_/\\|;:!?*+=<>\[\]{}@$%^&~\"]", " ", text)
    text = re.sub(r"\s+", " ", text).strip(" ,-'")
    return text, tuple(n for n in nicknames if len(n) >= 2)


def parse_raw(raw: str) -> tuple[Reading, ...]:
    """All plausible readings of a raw name, most likely first; () when it is not a name."""
    if len(raw) > MAX_NAME_LENGTH:
        return ()
    text, nicknames = clean_raw(raw)
    if "," in text:  # "Surname, Given"
        surname_part, _, given_part = text.partition(",")
        s_tokens = _tokens(surname_part)
        g_tokens = _tokens(given_part)
        if s_tokens and g_tokens:
            return _surname_first(s_tokens, g_tokens, nicknames, swapped_too=False)
        text = text.replace(",", " ")
    tokens = _tokens(text)
    if not tokens:
        return ()
    if len(tokens) == 1:
        return _single_token(tokens[0], nicknames)
    caps = [_is_caps(t) for t in tokens]
    n_caps = sum(caps)
    if 0 < n_caps < len(tokens):
        first_mixed = caps.index(False)
        if all(caps[:first_mixed]) and not any(caps[first_mixed:]):  # "BALICKI Cezary"
            return _surname_first(tokens[:first_mixed], tokens[first_mixed:], nicknames)
        last_caps_run = len(tokens) - caps[::-1].index(False)
        if all(caps[last_caps_run:]) and not any(caps[:last_caps_run]):  # "Pedro GONCALVES"
            return _given_first(tokens[:last_caps_run], tokens[last_caps_run:], nicknames)
    # Order unknown: given-first is the usual English order, surname-first the alternative.
    split = _surname_start(tokens)
    readings = list(_given_first(tokens[:split], tokens[split:], nicknames))
    readings += _surname_first([tokens[0]], tokens[1:], (), swapped_too=False, weight=W_SWAPPED)
    return tuple(readings)


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for token in text.replace(",", " ").split():
        token = token.strip(",")
        if token.endswith("'") and len(token) <= 3:  # "D' Avossa"
            out.append(token)
            continue
        if key_of(token) in _GENERATION:
            continue
        if token and key_of(token):
            out.append(token)
    # glue an apostrophe prefix to the next token: D' Avossa -> D'Avossa
    glued: list[str] = []
    for token in out:
        if glued and glued[-1].endswith("'"):
            glued[-1] = glued[-1] + token
        else:
            glued.append(token)
    return glued


def _surname_start(tokens: list[str]) -> int:
    """Index where the surname starts in given-first order: the last token plus its particles."""
    i = len(tokens) - 1
    while i > 1 and key_of(tokens[i - 1]) in PARTICLES:
        i -= 1
    return i


def _given_first(
    given_tokens: list[str], surname_tokens: list[str], nicknames: tuple[str, ...]
) -> tuple[Reading, ...]:
    given, initials = _given_parts(given_tokens)
    keys = _surname_keys(surname_tokens)
    if not keys:
        return ()
    return (Reading(tuple(keys), given, initials, nicknames),)


def _surname_first(
    surname_tokens: list[str],
    given_tokens: list[str],
    nicknames: tuple[str, ...],
    swapped_too: bool = True,
    weight: float = 1.0,
) -> tuple[Reading, ...]:
    # trailing particles belong to the surname: "GALLEGO Tina J. Del" -> Del Gallego
    given_tokens = list(given_tokens)
    moved: list[str] = []
    while given_tokens and key_of(given_tokens[-1]) in PARTICLES and len(given_tokens) > 1:
        moved.insert(0, given_tokens.pop())
    given, initials = _given_parts(given_tokens)
    keys = _surname_keys(moved + surname_tokens)
    if not keys:
        return ()
    readings = [Reading(tuple(keys), given, initials, nicknames, weight=weight)]
    if swapped_too and given_tokens:
        # the ranking list sometimes stores such names the other way round ("Sumampouw Conny")
        s_given, s_initials = _given_parts(surname_tokens)
        swapped_keys = _surname_keys([t for t in given_tokens if not _is_initial(t)])
        if swapped_keys and s_given:
            readings.append(Reading(tuple(swapped_keys), s_given, s_initials, (), weight=W_SWAPPED))
    return tuple(readings)


_CAMEL_INITIAL = re.compile(r"^(.*[a-z])([A-Z]{1,2})$")
_LEADING_PARTICLE = re.compile(r"^(de|di|da|du|del|della|van|von|vd|la|le|el|al|ten|ter)(?=[A-Z])")


def _single_token(token: str, nicknames: tuple[str, ...]) -> tuple[Reading, ...]:
    """Vugraph style: "Balicki", "LallH", "deWijs", "v.Prooijen", "N-Pinder", "Zimmerm."."""
    truncated = False
    initials: list[str] = []
    if token.endswith(".") and len(token.rstrip(".")) >= 5 and "." not in token.rstrip("."):
        token = token.rstrip(".")
        truncated = True
    if "." in token.strip("."):  # "v.Prooijen", "vd.Berg", "J.Smith"
        head, _, tail = token.strip(".").partition(".")
        if key_of(head) in {"v", "vd", "vdr"}:
            token = {"v": "van", "vd": "vander", "vdr": "vander"}[key_of(head)] + tail
        elif len(key_of(head)) <= 2:
            initials.extend(key_of(head))
            token = tail
        else:
            token = head + tail
    token = token.strip(".")
    m = re.match(r"^([A-Za-z])-(.{3,})$", token)  # "N-Pinder": initial + surname
    if m:
        initials.append(m.group(1).lower())
        token = m.group(2)
    m = _CAMEL_INITIAL.match(token)
    if m and not _is_caps(token):
        initials.extend(ch.lower() for ch in m.group(2))
        token = m.group(1)
    surname_tokens = [token]
    m = _LEADING_PARTICLE.match(token)
    if m:
        surname_tokens = [m.group(1), token[m.end() :]]
    keys = _surname_keys(surname_tokens)
    if not keys:
        return ()
    return (Reading(tuple(keys), (), tuple(initials), nicknames, truncated=truncated),)


# ----------------------------------------------------------------------------- ranking entries

_DAMAGED_INSIDE = re.compile(
    r"(?<=[A-Za-z]) (?=[a-z])(?!(?:el|al|de|di|da|du|la|le|van|von|der|den|ten|ter|y)\b)"
)
_DAMAGED_END = re.compile(r"(?<=[A-Za-z])  (?=\S)")


def parse_entry(entry: RankingEntry) -> EntryName:
    """Parts of a ranking entry; WBF layouts give first/last, the simple list needs heuristics."""
    if entry.last:
        given_text, surname_text = entry.first or "", entry.last
        return _entry_from_parts(entry, given_text, surname_text, alt="")
    name = fold(entry.name)
    alt = ""
    m = re.search(r"\(([^)]*)\)?\s*$", name)
    if m:  # trailing (...) is another surname: maiden/married name
        alt = m.group(1)
        name = name[: m.start()]
    name = _DAMAGED_END.sub("? ", name)
    name = _DAMAGED_INSIDE.sub("?", name)
    tokens = _tokens(re.sub(r"\([^)]*\)", " ", name.replace('"', " ")))
    tokens = [t for t in tokens if not re.fullmatch(r"'[^']*'", t)]
    if not tokens:
        return EntryName(entry, (), (), (), (), "", frozenset())
    caps = [_is_caps(t) for t in tokens]
    if any(caps) and not all(caps) and caps[-1]:  # "Yu Chih LIN", "Pedro GONCALVES"
        start = len(tokens) - caps[::-1].index(False)
    elif len(tokens) == 1:
        start = 0
    else:
        start = _surname_start(tokens)
        if key_of(tokens[0]) in PARTICLES and start == 1 and len(tokens) == 2:  # "MAC DONALD"
            start = 0
    return _entry_from_parts(entry, " ".join(tokens[:start]), " ".join(tokens[start:]), alt)


def _entry_from_parts(
    entry: RankingEntry, given_text: str, surname_text: str, alt: str
) -> EntryName:
    name = fold(entry.name)
    nicknames = tuple(
        key_of(n)
        for n in re.findall(r"\(([^)]*)\)", name) + re.findall(r"(?:^|\s)'([^']+)'(?=\s|$)", name)
        if len(key_of(n)) >= 2
    )
    given_tokens = _tokens(re.sub(r"\([^)]*\)|(?:^|\s)'[^']+'(?=\s|$)", " ", given_text))
    surname_tokens = _tokens(surname_text)
    keys = _surname_keys(surname_tokens)
    if len(given_tokens) >= 2 and not _is_initial(given_tokens[-1]):
        # "Gonzalo Goded Merino", "Gemma Tan Mariano": the middle token may be the first surname
        middle = given_tokens[-1]
        keys.append(SurnameKey(key_of(middle), W_MIDDLE, False, middle=True))
        if keys[0].key:
            keys.append(SurnameKey(key_of(middle) + keys[0].key, W_PRIMARY, True, middle=True))
    alt_clean = key_of(alt)
    if len(alt_clean) >= 3 and alt_clean not in _GENERATION:
        keys.extend(SurnameKey(k.key, W_ALT, k.strong) for k in _surname_keys(_tokens(alt)))
    given, initials = _given_parts(given_tokens)
    joined = "".join(key_of(t) for t in given_tokens)
    tokens = frozenset(key_of(t) for t in given_tokens + surname_tokens) | set(nicknames)
    return EntryName(
        entry, tuple(_dedupe(keys)), given, initials, nicknames, joined, frozenset(tokens)
    )
