"""The template language: what a game's TOML may hold, checked on load, made into the model.

``loader`` reads a game (its TOML, catalogs, data files and icons) through ``spec`` (the
declared tables and keys, checked by ``schema``), ``elements`` (the elements of a face),
``language`` (expressions, conditions and placeholders) and ``facts`` (the rules' facts a
kit prints), and builds ``model``. ``starter`` is the folder ``pnp new`` writes.
"""
