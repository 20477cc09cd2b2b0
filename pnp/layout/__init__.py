"""Pure layout: model -> placements in mm. No reportlab here."""
