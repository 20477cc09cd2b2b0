"""``pnp watch``: a kit's pages in a browser page that follows every save of its files.

Beside :mod:`pnp.web` (it borrows the scorer's socket helpers, nothing of its store or
pages)::

    watched (what a render read, polled)  ->  worker (one render in a fresh child process)
      ->  state (the pages shown, the errors, pictures made with PDFium as asked)
      ->  app (the page, its long-polled state, pictures, the PDF)  ->  serve (uvicorn, the watching thread)
"""
