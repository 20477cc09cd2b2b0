"""Writing what the commands and the web make: a kit's PDF with its manifest (``build``) and
a filled scoresheet (``scoresheet``), each as one group of files written whole."""
