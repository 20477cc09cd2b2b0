"""Errors for people: each says what was wrong, where, and what was expected.

They subclass ValueError and carry no CLI dependency; the CLI turns any
PnpError into one line ``Error: ...`` and exit code 1.
"""

#: What every error line of the commands starts with, in every language:
#: the README promises it to scripts that read the output.
ERROR_PREFIX = "Error: "


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
