"""Print-and-play kit generator for Hunting Fever, Halali!, Card Hunter and Hunting Hunting Beavers."""

__version__ = "0.1.0"
