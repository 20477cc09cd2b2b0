"""Errors for people: each says what was wrong, where, and what was expected.

They subclass ValueError and carry no CLI dependency; the CLI turns any
PnpError into one line ``Error: ...`` and exit code 1.
"""

import unicodedata

#: What every error line of the commands starts with, in every language:
#: the README promises it to scripts that read the output.
ERROR_PREFIX = "Error: "
#: What a line starts with that says something worth knowing of what was still done (a picture
#: that may print soft).
WARNING_PREFIX = "Warning: "
#: What a line starts with that says something of how a kit was made, for whoever designs it
#: (a board's named seams not needed).
NOTE_PREFIX = "Note: "


#: The characters that reorder text around them: embeddings, overrides, isolates and marks.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def obeyed_by_terminals(char: str) -> bool:
    """True for a character a terminal acts on instead of showing it: control characters
    (escape sequences, bell, line breaks), line and paragraph separators, and the
    marks that change the direction of text (which can print "Bob" as "boB")."""
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in BIDI_CONTROLS


def escaped(text: str) -> str:
    """``text`` with what a terminal would obey, and lone surrogates (undecodable
    bytes, which cannot be written as UTF-8), written as escapes.

    >>> escaped("Bo\\u202eb\\x1b[2J")
    'Bo\\\\u202eb\\\\x1b[2J'
    """
    if text.isprintable():
        return text
    return "".join(char.encode("unicode_escape").decode("ascii")
                   if obeyed_by_terminals(char) or 0xD800 <= ord(char) <= 0xDFFF else char
                   for char in text)


def one_line(message: str) -> str:
    """``message`` as one line a terminal shows as it is: line breaks and runs of
    spaces become one space, anything else a terminal would obey is escaped.

    Some messages come from other libraries, in several lines.

    >>> one_line("cannot fit\\n  'Wolf'\\x1b[2J")
    "cannot fit 'Wolf'\\\\x1b[2J"
    """
    return escaped(" ".join(message.split()))


class PnpError(ValueError):
    """Base of every error the generator reports to a user."""


class KeyClash(PnpError):
    """Two keys of one table are one key once composed (:func:`composed`); ``key`` is it."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key!r} appears twice in one table, its letters encoded two ways "
                         "(é typed as one character, then as e and an accent)")
        self.key = key


def composed(document: object, source: str | None = None) -> object:
    """``document`` (a text, or what TOML or JSON gave) with every text and key in
    Unicode's composed form, NFC; tables and lists are changed in place.

    A name typed on one keyboard as "é" and on another as "e" and a combining
    accent reads the same, and is made the same string wherever it enters (a
    template, a catalog, a session file, the web pages): one key for a player in
    every day, and the glyphs the fonts have. KeyClash if two keys of one table
    become one. ``source``, the text the document was read from: when it is composed
    already and writes no escape sequence (a backslash and u), neither is any text in the
    document, and nothing is walked.

    >>> composed({"players": ["He\u0301le\u0300ne"]}) == {"players": ["H\u00e9l\u00e8ne"]}
    True
    """
    if isinstance(document, str):
        return _nfc(document)
    if source is not None and "\\u" not in source.lower() and (
            source.isascii() or unicodedata.is_normalized("NFC", source)):
        return document
    stack = [document]   # iterative: a document may nest deeper than Python recurses
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if not all(type(key) is not str or key.isascii() or unicodedata.is_normalized("NFC", key)
                       for key in item):
                pairs = list(item.items())
                item.clear()
                for key, value in pairs:
                    key = _nfc(key) if type(key) is str else key
                    if key in item:
                        raise KeyClash(key)
                    item[key] = value
            entries = item.items()
        elif isinstance(item, list):
            entries = enumerate(item)
        else:
            continue
        for key, value in list(entries) if isinstance(item, dict) else entries:
            if type(value) is str:
                if not value.isascii():
                    item[key] = _nfc(value)
            elif isinstance(value, (dict, list)):
                stack.append(value)
    return document


def _nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)


class TemplateError(PnpError):
    """A component definition or text catalog is malformed.

    ``problems`` holds every problem found; the message is the first one.
    """

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems = list(problems) if problems else [message]


class CatalogError(TemplateError):
    """A text key is missing or malformed in a language catalog."""


class TextFitError(TemplateError):
    """A string does not fit its box even at the smallest allowed size (a
    template or catalog mistake: the box or the text must change)."""


class UnknownNameError(PnpError):
    """An unknown game, component, paper, card size or colour was asked for."""


class OutputError(PnpError):
    """The output folder or file cannot be written."""


def raise_problems(problems: list[str], error: type[TemplateError] = TemplateError) -> None:
    """Raise ``error`` carrying every problem, if there are any: the message
    is the first one and says how many more there are."""
    if problems:
        more = len(problems) - 1
        raise error(problems[0] + (f" (and {more} more problem(s))" if more else ""), problems)
