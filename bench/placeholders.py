"""How long filling a face's texts takes: pnp.template.language.fill against string.Formatter.

Usage: python bench/placeholders.py

Each text is filled 20,000 times, the best of five rounds, in microseconds a text. Filling
was str.format's Formatter before expressions in placeholders ({i + 1}); it is now the text's
parts, read once and kept. The Formatter column is what the old way cost on the same machine.
"""

from __future__ import annotations

import string
import timeit

from pnp.template.language import fill

VALUES = {"value": -4, "name": "Wolf", "copy": 3, "hits": 2, "id": "wolf", "i": 4}
TEXTS = ("{name}", "{value:+d}", "No. {copy:02d} of {hits}", "{hits} × {value:+d}", "plain text", "card.{id}",
         "{i + 1}", "{10 if value == 6 else value}")


def best(call) -> float:
    return min(timeit.repeat(call, number=20_000, repeat=5)) / 20_000 * 1e6


def main() -> None:
    formatter = string.Formatter()
    print("| text | fill (us) | string.Formatter (us) |\n|---|---|---|")
    for text in TEXTS:
        try:
            formatter.vformat(text, (), VALUES)
            old = f"{best(lambda: formatter.vformat(text, (), VALUES)):.2f}"
        except (KeyError, ValueError):
            old = "cannot"
        print(f"| `{text}` | {best(lambda: fill(text, VALUES)):.2f} | {old} |")


if __name__ == "__main__":
    main()
