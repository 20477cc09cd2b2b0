"""What both parts of the project stand on: the kits (the rest of ``pnp``) and the score
companion (``scoring``) import from here, and nothing here imports either of them.

Errors, files written whole, limits, catalogs and languages, lengths and papers, where the
shipped data lives, the one registry of games, the scoresheet's model, signals, TOML and QR.
"""
