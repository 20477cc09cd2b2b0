"""``pnp preflight``: what a kit prints badly, found on its faces as they are printed.

``colours`` (pure: colour vision, greyscale, CIEDE2000, ink) -> ``checks`` (pure: each check of
an element's primitives, of a component's set colours and hidden backs) -> ``run`` (the kit laid
out and drawn as ``pnp render`` does it, every face looked at, the report).
"""
