"""How each kind of element is laid out: one module per kind, named after it.

Each module (``rect.py`` for ``type = "rect"``) has:

- ``resolve(keys, face, values, frame)``: the element's primitives in mm (see
  :mod:`pnp.layout.kinds.base`, what every resolver shares);
- ``DRAWS``: the kinds of primitive its layers hold, each with its box and how it
  moves (:mod:`pnp.layout.primitives`, or its own module for a primitive only this
  kind draws) and its drawer (``pnp/render/draw.py``);
- ``spent(keys)`` when one drawing of it lays out more than one shape (a table's
  cells) or polygon corners: (shapes, corners), counted against the kit's work budget;
- ``prepare(keys, size)``, if it has one: the keys (lengths folded) of an element on a
  piece of ``size`` mm with what every copy shares worked out once, for ``resolve``
  (a plain text's box and size, checked once: ``text.prepare``).

What each kind accepts is its row in :mod:`pnp.template.kinds`;
tests/test_element_kinds.py fails when a kind of that table lacks any part here.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from pnp.template.kinds import KINDS


def laid_out(kind: str) -> ModuleType:
    """The module that lays out elements of ``kind`` (a kind of :data:`pnp.template.kinds.KINDS`).

    >>> laid_out("rect").DRAWS
    (<class 'pnp.layout.primitives.Rect'>,)
    """
    module = _LOADED.get(kind)
    if module is None:
        if kind not in KINDS:
            raise KeyError(f"no element kind {kind!r}; expected one of: {', '.join(KINDS)}")
        # Loaded on first use: a kit loads only the kinds its templates use.
        module = _LOADED[kind] = import_module(f"{__name__}.{kind}")
    return module


_LOADED: dict[str, ModuleType] = {}
