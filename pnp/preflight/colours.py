"""How colours look to other eyes and on other printers: pure arithmetic on ``#rrggbb``.

- **Colour vision deficiencies** are simulated with the matrices of Machado,
  Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation
  of Color Vision Deficiency", IEEE Transactions on Visualization and Computer
  Graphics 15(6), 1291-1298, at severity 1.0 (dichromacy: protanopia,
  deuteranopia, tritanopia), applied to linear sRGB as the paper's model is.
- **A greyscale print** keeps a colour's lightness, CIE L*, and nothing else.
- **Telling two colours apart** is measured with CIEDE2000 (Sharma, Wu and
  Dalal 2005, "The CIEDE2000 Color-Difference Formula: Implementation Notes,
  Supplementary Test Data, and Mathematical Observations", Color Research and
  Application 30(1)): about 1 is the smallest difference one sees side by
  side; two pieces on a table, in a hand, under a lamp, need far more.
- **Ink**: how much ink a colour asks of a four-colour printer, C + M + Y + K in
  per cent, by the plain separation of ISO 32000-1 (PDF 1.7) section 10.3.5,
  with full black generation and no under-colour removal: what a printer that
  does not limit its ink lays down (black is 400%). Printers limit the total
  to about 300% (less on uncoated paper); a dark area above that smears, curls
  the sheet and shows through to the back.
"""

from __future__ import annotations

import math

from pnp.core.records import NamedTuple

#: Machado et al. (2009), severity 1.0: linear RGB in, linear RGB out (rows: R, G, B).
MACHADO_2009 = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
#: The ways a colour is seen that the sets of a kit must survive, in the order reported.
VISIONS = ("normal", "deuteranopia", "protanopia", "tritanopia", "greyscale")
#: Who sees it that way, for messages.
SEEN_BY = {
    "normal": "to everyone",
    "deuteranopia": "to a deuteranope (no green cones, about 1 man in 100)",
    "protanopia": "to a protanope (no red cones, about 1 man in 100)",
    "tritanopia": "to a tritanope (no blue cones, rare)",
    "greyscale": "printed in greyscale",
}
#: Two colours nearer than this (CIEDE2000) are taken for one another across a table.
APART_DE00 = 10.0

# sRGB's primaries in CIE XYZ (IEC 61966-2-1), white D65.
_TO_XYZ = ((0.4124564, 0.3575761, 0.1804375),
           (0.2126729, 0.7151522, 0.0721750),
           (0.0193339, 0.1191920, 0.9503041))
_WHITE = (0.95047, 1.0, 1.08883)


class Lab(NamedTuple):
    L: float
    a: float
    b: float


def rgb_of(color: str) -> tuple[float, float, float]:
    """``#rrggbb`` as three numbers from 0 to 1.

    >>> rgb_of("#ff8000")
    (1.0, 0.5019607843137255, 0.0)
    """
    return tuple(int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab_of_linear(rgb: tuple[float, float, float]) -> Lab:
    x, y, z = (sum(m * c for m, c in zip(row, rgb)) / w for row, w in zip(_TO_XYZ, _WHITE))

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return Lab(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def lab(color: str) -> Lab:
    """A colour's CIE L*a*b* (D65).

    >>> [round(v, 1) + 0.0 for v in lab("#ffffff")], [round(v, 1) for v in lab("#000000")]
    ([100.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    """
    return _lab_of_linear(tuple(_linear(c) for c in rgb_of(color)))  # type: ignore[arg-type]


def seen(color: str, vision: str) -> Lab:
    """How ``color`` looks to ``vision`` (one of :data:`VISIONS`), as L*a*b*.

    >>> round(seen("#de4a3a", "greyscale").L, 1) == round(lab("#de4a3a").L, 1)
    True
    """
    if vision == "normal":
        return lab(color)
    if vision == "greyscale":
        return Lab(lab(color).L, 0.0, 0.0)
    matrix = MACHADO_2009[vision]
    linear = tuple(_linear(c) for c in rgb_of(color))
    simulated = tuple(min(1.0, max(0.0, sum(m * c for m, c in zip(row, linear)))) for row in matrix)
    return _lab_of_linear(simulated)  # type: ignore[arg-type]


def delta_e00(first: Lab, second: Lab) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1).

    Sharma et al.'s first test pair:

    >>> round(delta_e00(Lab(50, 2.6772, -79.7751), Lab(50, 0, -82.7485)), 4)
    2.0425
    >>> round(delta_e00(Lab(50, 2.5, 0), Lab(73, 25, -18)), 4)
    27.1492
    """
    L1, a1, b1 = first
    L2, a2, b2 = second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dL, dC = L2 - L1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    L_mean, cp_mean = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (L_mean - 50) ** 2 / math.sqrt(20 + (L_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dL / s_l) ** 2 + (dC / s_c) ** 2 + (dH / s_h) ** 2 + r_t * (dC / s_c) * (dH / s_h))


def difference(first: str, second: str, vision: str) -> float:
    """How far apart two colours look to ``vision`` (CIEDE2000).

    A brick red and a leaf green, far apart to most eyes, nearly one to a deuteranope:

    >>> round(difference("#cc3333", "#669933", "normal")), round(difference("#cc3333", "#669933", "deuteranopia"))
    (61, 6)
    """
    return delta_e00(seen(first, vision), seen(second, vision))


class Ink(NamedTuple):
    """A colour's separation into printing inks, each 0 to 1."""

    c: float
    m: float
    y: float
    k: float

    @property
    def total(self) -> float:
        """C + M + Y + K in per cent (0 to 400)."""
        return 100 * (self.c + self.m + self.y + self.k)


def ink(color: str) -> Ink:
    """The separation of ISO 32000-1 section 10.3.5 with full black generation and no
    under-colour removal (see the module's docstring).

    >>> ink("#000000").total, ink("#ffffff").total, round(ink("#2e2a2b").total)
    (400.0, 0.0, 331)
    """
    r, g, b = rgb_of(color)
    c, m, y = 1 - r, 1 - g, 1 - b
    return Ink(c, m, y, min(c, m, y))


def is_rich_black(color: str) -> bool:
    """A near-black that every ink makes: dark (L* under 25) and nearly grey.

    >>> is_rich_black("#2e2a2b"), is_rich_black("#23417f"), is_rich_black("#000000")
    (True, False, True)
    """
    L, a, b = lab(color)
    return L < 25 and math.hypot(a, b) < 10
