"""A module loaded when it is first used rather than when it is first imported.

reportlab imports Pillow's ``PIL.Image`` as it loads, for the pictures a PDF may hold, and
Pillow's Image loads its C library, its EXIF and TIFF tag tables and a dozen enums: about
7 ms, a tenth of rendering a small deck, and none of the shipped kits draws a picture.
:func:`defer` makes such a module's import give a module object at once, whose code runs
the first time one of its names is read (``Image.open``): a kit with pictures loads Pillow
when it opens the first one, a kit without never does.

This is what the standard library's ``importlib.util.LazyLoader`` does, with the lock it
gained in Python 3.12: the first use runs the module's code once, in one thread, and
another thread that reads one of its names meanwhile waits for it (in 3.11 it would see
the module half made).
"""

from __future__ import annotations

import _thread
import sys
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType


def defer(name: str) -> None:
    """Load the module ``name`` (``"package.module"``, from files) when it is first used, from
    its next import on. Nothing changes for a module imported already, or one that cannot
    be loaded so (it is then imported as usual)."""
    if name not in sys.modules and not any(isinstance(finder, _Deferring) and finder.name == name
                                           for finder in sys.meta_path):
        sys.meta_path.insert(0, _Deferring(name))


class _Deferring:
    """The finder that gives ``name``'s import a module whose code waits for its first use
    (once: it then leaves ``sys.meta_path``)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def find_spec(self, fullname: str, path=None, target=None) -> ModuleSpec | None:
        if fullname != self.name:
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _DeferredLoader(spec.loader)
        return spec


class _DeferredLoader:
    """Makes the module and leaves its code for its first use (:class:`_Deferred`)."""

    def __init__(self, loader) -> None:
        self.loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__.loader = module.__loader__ = self.loader
        module.__spec__.loader_state = {"__dict__": module.__dict__.copy(), "__class__": module.__class__,
                                        "lock": _thread.RLock(), "loading": False}
        module.__class__ = _Deferred


class _Deferred(ModuleType):
    """A module whose code has not run yet: reading any of its names runs it first."""

    def __getattribute__(self, attr: str):
        spec = object.__getattribute__(self, "__spec__")
        state = spec.loader_state
        with state["lock"]:
            # The first thread in runs the code; the others wait here, then find the module made.
            if object.__getattribute__(self, "__class__") is _Deferred:
                kind = state["__class__"]
                if state["loading"]:  # the module's own code, or what it imports, reading it
                    return kind.__getattribute__(self, attr)
                state["loading"] = True
                names = kind.__getattribute__(self, "__dict__")
                before = state["__dict__"]
                # What was set on the module since (a submodule imported meanwhile), kept over its code.
                changed = {key: value for key, value in names.items()
                           if key not in before or before[key] is not value}
                try:
                    spec.loader.exec_module(self)
                except BaseException:
                    state["loading"] = False  # as an import that failed: the next use tries again
                    raise
                if spec.name in sys.modules and sys.modules[spec.name] is not self:
                    raise ValueError(f"the module {spec.name!r} was replaced in sys.modules while it loaded")
                names.update(changed)
                if object.__getattribute__(self, "__class__") is _Deferred:  # unless its code set its own
                    object.__setattr__(self, "__class__", kind)
        return getattr(self, attr)

    def __delattr__(self, attr: str) -> None:
        self.__getattribute__(attr)  # loads it (and says so when the name does not exist)
        delattr(self, attr)
