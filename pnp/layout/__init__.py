"""Pure layout: model -> pages, placements and resolved faces, in mm. No reportlab here."""
