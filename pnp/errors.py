"""Errors for people: each says what was wrong, where, and what was expected.

They subclass ValueError and carry no CLI dependency; the CLI turns any
PnpError into one line ``Error: ...`` and exit code 1.
"""

import unicodedata

#: What every error line of the commands starts with, in every language:
#: the README promises it to scripts that read the output.
ERROR_PREFIX = "Error: "


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
