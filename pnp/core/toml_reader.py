"""The TOML reader templates and catalogs are read with.

tomli's wheels are compiled, and reading a large template is a good part of
rendering it; the standard library's tomllib is the same parser in pure Python,
with the same messages, so where no tomli is installed, tomllib reads alike. Session files, a few
kilobytes each, are read with tomllib.
"""

from __future__ import annotations

try:
    from tomli import TOMLDecodeError, loads
except ImportError:  # a platform without tomli's wheel
    from tomllib import TOMLDecodeError, loads

__all__ = ["TOMLDecodeError", "loads"]
