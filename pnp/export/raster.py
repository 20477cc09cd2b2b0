"""PDF pages to pixels with PDFium, on every core when there is enough to do.

Each page is drawn stretched to an exact pixel size, so a service's 825 x 1125
is 825 x 1125 whatever the rounding of the page size in points.
"""

from __future__ import annotations

import io
import os
import zlib
from typing import Callable, Iterator

from pnp.core.records import NamedTuple
from pnp.core.signals import held, reset_in_worker

#: How PNG files are compressed. Encoding is most of an export's time: zlib's run-length
#: strategy at level 1 is the fastest setting on cards (bench/export.py --levels compares
#: them; bench/RESULTS.md) and its files are smaller than plain level 1's: after PNG's row
#: filters, a flat card is mostly runs of zeros.
PNG_OPTIONS = {"compress_level": 1, "compress_type": zlib.Z_RLE}
#: Below this many pages, starting worker processes costs more than it saves.
PARALLEL_FROM = 24
CHUNK = 6


class Job(NamedTuple):
    page: int                    # index in the PDF
    pixels: tuple[int, int]
    encode: bool                 # True: PNG bytes; False: raw RGB bytes (to paste into a sheet)
    dpi: int                     # written into the PNG
    alpha: bool = False          # transparent where nothing is drawn (outside a shaped trim)


class _PageToBitmap(NamedTuple):
    """PDFium's FPDF_RenderPageBitmap arguments, by their names in its header (a C call takes
    them in order): the whole page drawn over the whole bitmap, upright."""

    bitmap: object
    page: object
    start_x: int = 0
    start_y: int = 0
    size_x: int = 0
    size_y: int = 0
    rotate: int = 0
    flags: int = 0


def _render(document, job: Job) -> bytes:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    w, h = job.pixels
    page = document[job.page]
    if job.alpha:
        bitmap = pdfium.PdfBitmap.new_native(w, h, pdfium_c.FPDFBitmap_BGRA, rev_byteorder=True)
        bitmap.fill_rect((255, 255, 255, 0), left=0, top=0, width=w, height=h)
    else:
        bitmap = pdfium.PdfBitmap.new_native(w, h, pdfium_c.FPDFBitmap_BGR, rev_byteorder=True)
        bitmap.fill_rect((255, 255, 255, 255), left=0, top=0, width=w, height=h)
    pdfium_c.FPDF_RenderPageBitmap(*_PageToBitmap(bitmap, page, size_x=w, size_y=h,
                                                  flags=pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER))
    image = bitmap.to_pil()
    if not job.encode:
        data = image.tobytes()
    else:
        buffer = io.BytesIO()
        image.save(buffer, "PNG", dpi=(job.dpi, job.dpi), **PNG_OPTIONS)
        data = buffer.getvalue()
    page.close()
    return data


def _render_chunk(args: tuple[bytes, list[Job]]) -> list[bytes]:
    import pypdfium2 as pdfium

    pdf, jobs = args
    document = pdfium.PdfDocument(pdf)
    try:
        return [_render(document, job) for job in jobs]
    finally:
        document.close()


def workers() -> int:
    """Processes to rasterise with: the cores this process may use, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return max(1, min(4, cores))


def rasterise(pdf: bytes, jobs: list[Job],
              progress: Callable[[int], None] | None = None) -> Iterator[tuple[Job, bytes]]:
    """Each job's image, in order; ``progress`` is told how many pages each step finished."""
    chunks = [jobs[i:i + CHUNK] for i in range(0, len(jobs), CHUNK)]
    count = workers()
    if count > 1 and len(jobs) >= PARALLEL_FROM:
        import multiprocessing

        # fork: the workers start in milliseconds, with PDFium not yet loaded in the parent.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        # Signals wait while the workers start, so none is caught by a worker that has
        # not yet set its own handling. Leaving the block by any exception (Ctrl-C,
        # SIGTERM, SIGHUP, an error writing) terminates the workers at once.
        with held():
            pool = context.Pool(count, initializer=reset_in_worker, initargs=(os.getpid(),))
        with pool:
            for chunk, images in zip(chunks, pool.imap(_render_chunk, [(pdf, c) for c in chunks])):
                yield from zip(chunk, images)
                if progress:
                    progress(len(chunk))
            pool.close()
            pool.join()
        return
    for chunk in chunks:
        yield from zip(chunk, _render_chunk((pdf, chunk)))
        if progress:
            progress(len(chunk))
