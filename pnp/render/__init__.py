"""Drawing with reportlab. The only place lengths become points and y is flipped."""
