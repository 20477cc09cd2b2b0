"""``NamedTuple``, as typing declares it, made without checking the fields' annotations.

pnp declares about 170 small record classes, ``class Size(NamedTuple): w: float``, and
most of the modules that declare them read their annotations as text (``from __future__
import annotations``). typing's NamedTuple turns each field's text into a ForwardRef, which
compiles it, and copies the class over once more; collections.namedtuple then compiles each
class's ``__new__`` from source. This one makes the same class as
``collections.namedtuple`` would (its methods, properties, docstrings and messages), with
the body's defaults, methods and docstring, and keeps the annotations as they were written;
its ``__new__`` is the one compiled function of as many fields, given the class's own
argument names (the code's ``replace``): about 7 µs a class rather than 90, some 80 a
command loads. Only the class form is offered: ``class Name(NamedTuple): ...``.

>>> class Size(NamedTuple):
...     w: float
...     h: float = 0.0
...     @property
...     def area(self) -> float:
...         return self.w * self.h
>>> Size(2, 3).area, Size(2), Size._fields, Size(1, 2)._replace(h=5)
(6, Size(w=2, h=0.0), ('w', 'h'), Size(w=1, h=5))
>>> isinstance(Size(1), tuple), Size.__annotations__
(True, {'w': 'float', 'h': 'float'})
>>> Size(h=1)
Traceback (most recent call last):
TypeError: Size.__new__() missing 1 required positional argument: 'w'
"""

from __future__ import annotations

import sys
from operator import itemgetter
from types import FunctionType

try:
    from _collections import _tuplegetter
except ImportError:  # another Python than CPython: what collections.namedtuple falls back on
    def _tuplegetter(index: int, doc: str) -> property:
        return property(itemgetter(index), doc=doc)

#: What a record's body may not set: the class makes these itself.
_PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                         "_make", "_replace", "_asdict", "_source"})
#: What the class statement sets, and the record keeps as collections.namedtuple sets it.
_SPECIAL = frozenset({"__module__", "__name__", "__annotations__", "__qualname__"})  # as typing keeps them

_tuple_new = tuple.__new__
#: ``__new__`` by number of fields, compiled once each (``_new_function``).
_NEW_BY_ARITY: dict[int, FunctionType] = {}


def _new_function(typename: str, fields: tuple[str, ...], defaults: tuple, arguments: str) -> FunctionType:
    """``def __new__(_cls, <fields>): return tuple.__new__(_cls, (<fields>))``, as namedtuple
    compiles it for each class, but compiled once for a number of fields and renamed;
    ``arguments``: the fields as the class's docstring lists them."""
    arity = len(fields)
    template = _NEW_BY_ARITY.get(arity)
    if template is None:
        names = [f"a{index}" for index in range(arity)]
        joined = ", ".join(names) + ("," if arity == 1 else "")
        scope = {"_tuple_new": _tuple_new, "__builtins__": {}}
        exec(f"def __new__(_cls, {joined}): return _tuple_new(_cls, ({joined}))", scope)
        template = _NEW_BY_ARITY[arity] = scope["__new__"]
    qualname = f"{typename}.__new__"
    code = template.__code__.replace(co_varnames=("_cls", *fields), co_qualname=qualname)
    function = FunctionType(code, template.__globals__, "__new__", defaults or None)
    function.__qualname__ = qualname
    function.__doc__ = f"Create new instance of {typename}({arguments})"
    return function


def _record(typename: str, fields: tuple[str, ...], defaults: tuple, namespace: dict) -> type:
    """The class collections.namedtuple(typename, fields, defaults=defaults) makes, with
    ``namespace`` (the class body: its methods, properties and docstring) in it."""
    count = len(fields)
    repr_format = "(" + ", ".join(f"{name}=%r" for name in fields) + ")"

    def _make(cls, iterable):
        result = _tuple_new(cls, iterable)
        if len(result) != count:
            raise TypeError(f"Expected {count} arguments, got {len(result)}")
        return result

    def _replace(self, /, **kwds):
        result = self._make(map(kwds.pop, fields, self))
        if kwds:
            raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
        return result

    def __repr__(self):
        return self.__class__.__name__ + repr_format % self

    def _asdict(self):
        return dict(zip(self._fields, self))

    def __getnewargs__(self):
        return tuple(self)

    _make.__doc__ = f"Make a new {typename} object from a sequence or iterable"
    _replace.__doc__ = f"Return a new {typename} object replacing specified fields with new values"
    __repr__.__doc__ = "Return a nicely formatted representation string"
    _asdict.__doc__ = "Return a new dict which maps field names to their values."
    __getnewargs__.__doc__ = "Return self as a plain tuple.  Used by copy and pickle."
    for method in (_make, _replace, __repr__, _asdict, __getnewargs__):
        method.__qualname__ = f"{typename}.{method.__name__}"
    arguments = ", ".join(fields) + ("," if count == 1 else "")
    body = {
        "__doc__": f"{typename}({arguments})",
        "__slots__": (),
        "_fields": fields,
        "_field_defaults": dict(zip(fields[count - len(defaults):], defaults)),
        "__new__": _new_function(typename, fields, defaults, arguments),
        "_make": classmethod(_make),
        "_replace": _replace,
        "__repr__": __repr__,
        "_asdict": _asdict,
        "__getnewargs__": __getnewargs__,
        "__match_args__": fields,
    }
    for index, name in enumerate(fields):
        body[name] = _tuplegetter(index, sys.intern(f"Alias for field number {index}"))
    body.update(namespace)
    return type(typename, (tuple,), body)


class _RecordMeta(type):
    def __new__(mcs, typename: str, bases: tuple, namespace: dict):
        if bases != (_Record,):
            raise TypeError(f"{typename}: a NamedTuple of pnp.core.records takes no other base class")
        annotations = namespace.get("__annotations__", {})
        fields = tuple(map(sys.intern, annotations))
        defaults = []
        for name in fields:
            if name.startswith("_"):
                raise ValueError(f"{typename}: a field's name cannot start with an underscore: {name!r}")
            if name in namespace:
                defaults.append(namespace[name])
            elif defaults:
                raise TypeError(f"{typename}: the field {name} without a default follows one with a default")
        own = {}
        for key, value in namespace.items():
            if key in _PROHIBITED:
                raise AttributeError(f"{typename}: a NamedTuple cannot set {key}")
            if key not in _SPECIAL and key not in annotations:
                own[key] = value
        record = _record(sys.intern(typename), fields, tuple(defaults), own)
        record.__module__ = namespace["__module__"]
        record.__annotations__ = record.__new__.__annotations__ = dict(annotations)
        return record


_Record = type.__new__(_RecordMeta, "NamedTuple", (), {})


class _Base:
    """What ``class Name(NamedTuple)`` derives from (``__mro_entries__``: the metaclass's base)."""

    def __mro_entries__(self, bases: tuple) -> tuple:
        return (_Record,)

    def __repr__(self) -> str:
        return "pnp.core.records.NamedTuple"


NamedTuple = _Base()
