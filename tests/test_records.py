"""pnp's record classes (pnp.core.records.NamedTuple) are the classes collections.namedtuple makes:
the same fields, defaults, signature, methods, messages and copies."""

from __future__ import annotations

import collections
import copy
import importlib
import inspect
import pickle
import pkgutil

import pytest

import pnp
from pnp.core.records import NamedTuple


def records() -> list[type]:
    """Every record class pnp declares (a subclass of one is not a record of its own)."""
    found = []
    for info in pkgutil.walk_packages(pnp.__path__, "pnp."):
        module = importlib.import_module(info.name)
        found += [value for value in vars(module).values()
                  if isinstance(value, type) and value.__module__ == module.__name__ and value.__bases__ == (tuple,)
                  and hasattr(value, "_fields")]
    return found


def parameters(function) -> list[tuple]:
    return [(p.name, p.default, p.kind) for p in inspect.signature(function).parameters.values()]


def test_every_record_class_is_what_namedtuple_makes():
    classes = records()
    assert len(classes) > 150
    for record in classes:
        made = collections.namedtuple(record.__name__, record._fields, defaults=tuple(record._field_defaults.values()))
        assert (record._fields, record._field_defaults, record.__match_args__, record.__slots__) == (
            made._fields, made._field_defaults, made.__match_args__, made.__slots__), record
        assert parameters(record) == parameters(made), record
        assert record.__new__.__doc__ == made.__new__.__doc__ and record.__new__.__qualname__ == made.__new__.__qualname__
        for name in ("_make", "_replace", "_asdict", "__getnewargs__"):
            ours, theirs = getattr(record, name), getattr(made, name)
            assert (ours.__doc__, ours.__qualname__) == (theirs.__doc__, theirs.__qualname__), (record, name)
        for index, field in enumerate(record._fields):
            if type(vars(record)[field]).__name__ == "_tuplegetter":
                assert vars(record)[field].__doc__ == f"Alias for field number {index}"


class Sample(NamedTuple):
    """A record as pnp declares them."""

    name: str
    count: int = 1
    tags: tuple = ()

    @property
    def doubled(self) -> int:
        return self.count * 2


Plain = collections.namedtuple("Plain", "name count tags", defaults=(1, ()))


def test_a_record_behaves_as_a_named_tuple_in_every_way():
    ours, theirs = Sample("fox", 3, ("a",)), Plain("fox", 3, ("a",))
    assert ours == theirs and hash(ours) == hash(theirs) and tuple(ours) == ("fox", 3, ("a",))
    assert repr(ours) == "Sample(name='fox', count=3, tags=('a',))" and repr(theirs).startswith("Plain(name='fox'")
    assert ours._asdict() == theirs._asdict() and ours.doubled == 6
    assert ours._replace(count=5) == ("fox", 5, ("a",)) and type(ours._replace(count=5)) is Sample
    assert Sample._make(["hare", 2, ()]) == Sample("hare", 2) and Sample(name="owl") == ("owl", 1, ())
    assert pickle.loads(pickle.dumps(ours)) == ours and copy.deepcopy(ours) == ours and copy.copy(ours) is not None
    assert Sample.__doc__ == "A record as pnp declares them." and Sample.__annotations__ == {
        "name": "str", "count": "int", "tags": "tuple"}
    for call, words in ((lambda: Sample(), "missing 1 required positional argument: 'name'"),
                        (lambda: Sample("a", 1, (), 4), "takes from 2 to 4 positional arguments but 5 were given"),
                        (lambda: Sample("a", colour=2), "got an unexpected keyword argument 'colour'")):
        with pytest.raises(TypeError, match=words):
            call()
    with pytest.raises(ValueError, match=r"Got unexpected field names: \['colour'\]"):
        ours._replace(colour=1)
    with pytest.raises(TypeError, match="Expected 3 arguments, got 2"):
        Sample._make(["a", 1])
    with pytest.raises(AttributeError):
        ours.name = "wolf"


def test_a_record_of_one_field_and_one_of_none():
    class One(NamedTuple):
        only: int

    class Empty(NamedTuple):
        pass

    assert One(4) == (4,) and One(only=4).only == 4 and One.__new__.__doc__ == "Create new instance of One(only,)"
    assert Empty() == () and Empty._fields == ()


@pytest.mark.parametrize("body, error", [
    ("class Bad(NamedTuple):\n    a: int = 1\n    b: int\n", "without a default follows one with a default"),
    ("class Bad(NamedTuple):\n    _a: int\n", "cannot start with an underscore"),
    ("class Bad(NamedTuple):\n    a: int\n    def _replace(self): pass\n", "cannot set _replace"),
    ("class Bad(NamedTuple, dict):\n    a: int\n", "takes no other base class"),
])
def test_a_record_declared_wrong_is_refused(body, error):
    with pytest.raises((TypeError, ValueError, AttributeError), match=error):
        exec(body, {"NamedTuple": NamedTuple})
