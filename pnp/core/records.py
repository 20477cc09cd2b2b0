"""``NamedTuple``, as typing declares it, made without checking the fields' annotations.

pnp declares about 170 small record classes, ``class Size(NamedTuple): w: float``, and
most of the modules that declare them read their annotations as text (``from __future__
import annotations``). typing's NamedTuple turns each field's text into a ForwardRef, which
compiles it, and copies the class over once more: about 60 of the 90 µs a class takes, 5 ms
of every command's start. This one makes the very same class (collections.namedtuple, the
body's defaults, methods, properties and docstring) and keeps the annotations as they were
written. Only the class form is offered: ``class Name(NamedTuple): ...``.

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
"""

from __future__ import annotations

import collections

#: What a record's body may not set: namedtuple makes these itself.
_PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                         "_make", "_replace", "_asdict", "_source"})
#: What the class statement sets, and namedtuple sets already.
_SPECIAL = frozenset({"__module__", "__name__", "__annotations__", "__qualname__"})  # as typing keeps them


class _RecordMeta(type):
    def __new__(mcs, typename: str, bases: tuple, namespace: dict):
        if bases != (_Record,):
            raise TypeError(f"{typename}: a NamedTuple of pnp.core.records takes no other base class")
        fields = namespace.get("__annotations__", {})
        defaults = []
        for name in fields:
            if name in namespace:
                defaults.append(namespace[name])
            elif defaults:
                raise TypeError(f"{typename}: the field {name} without a default follows one with a default")
        record = collections.namedtuple(typename, fields, defaults=defaults, module=namespace["__module__"])
        record.__annotations__ = record.__new__.__annotations__ = dict(fields)
        for key, value in namespace.items():
            if key in _PROHIBITED:
                raise AttributeError(f"{typename}: a NamedTuple cannot set {key}")
            if key not in _SPECIAL and key not in record._fields:
                setattr(record, key, value)
        return record


_Record = type.__new__(_RecordMeta, "NamedTuple", (), {})


class _Base:
    """What ``class Name(NamedTuple)`` derives from (``__mro_entries__``: the metaclass's base)."""

    def __mro_entries__(self, bases: tuple) -> tuple:
        return (_Record,)

    def __repr__(self) -> str:
        return "pnp.core.records.NamedTuple"


NamedTuple = _Base()
