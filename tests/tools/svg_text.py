#!/usr/bin/env python3
"""Texts a person could not read in gnuplot's SVG output: two that overlap,
or one that runs off the image.

    svg_text.py FILE.svg...      prints each clash, exits 1 if there is one

gnuplot's svg terminal writes each text as
    <g transform="translate(X,Y) rotate(A)" ... font-size="S" text-anchor="start|middle|end">
        <text>TEXT</text>
Its box is estimated from the font size: a character 0.6 em wide (DejaVu Sans'
digits are 0.64 em, its lower case 0.5-0.6 em), a line 1 em high whose
baseline is at Y. Boxes are shrunk by a pixel each side, so texts that only
touch do not count."""
import math
import re
import sys

TEXT = re.compile(r'<g transform="translate\(([-0-9.]+),([-0-9.]+)\)(?: rotate\(([-0-9.]+)\))?"[^>]*?'
                  r'font-size="([0-9.]+)"[^>]*?text-anchor="(start|middle|end)"[^>]*>\s*<text>(.*?)</text>', re.S)
SIZE = re.compile(r'<svg[^>]*viewBox="0 0 ([0-9.]+) ([0-9.]+)"')
CHAR_EM = 0.6


def unescape(s):
    return re.sub(r'<[^>]+>', '', s).replace('&lt;', '<').replace('&gt;', '>').replace('&amp;', '&')


def corners(x, y, angle, size, anchor, text):
    """The four corners of a text's box, rotated as the SVG rotates it."""
    w = CHAR_EM * size * len(text)
    x0 = {'start': 0, 'middle': -w / 2, 'end': -w}[anchor]
    box = [(x0 + 1, -0.8 * size + 1), (x0 + w - 1, -0.8 * size + 1), (x0 + w - 1, 0.2 * size - 1),
           (x0 + 1, 0.2 * size - 1)]
    a = math.radians(angle)
    return [(x + u * math.cos(a) - v * math.sin(a), y + u * math.sin(a) + v * math.cos(a)) for u, v in box]


def separated(p, q):
    """Do two convex polygons not intersect (separating axis)?"""
    for poly in (p, q):
        for i in range(len(poly)):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y2 - y1, x1 - x2
            a = [nx * x + ny * y for x, y in p]
            b = [nx * x + ny * y for x, y in q]
            if max(a) <= min(b) or max(b) <= min(a):
                return True
    return False


def texts(svg):
    """Each text once: a boxed label is drawn twice, its box then its text."""
    seen = set()
    for m in TEXT.finditer(svg):
        x, y, angle, size, anchor, text = m.groups()
        text = unescape(text).strip()
        if text and m.groups() not in seen:
            seen.add(m.groups())
            yield text, corners(float(x), float(y), float(angle or 0), float(size), anchor, text)


def clashes(path):
    svg = open(path).read()
    width, height = map(float, SIZE.search(svg).groups())
    boxes = list(texts(svg))
    out = []
    for text, box in boxes:
        if any(x < 0 or x > width or y < 0 or y > height for x, y in box):
            out.append(f"{path}: '{text}' runs off the {width:.0f}x{height:.0f} image")
    for i, (t1, b1) in enumerate(boxes):
        for t2, b2 in boxes[i + 1:]:
            if not separated(b1, b2):
                out.append(f"{path}: '{t1}' overlaps '{t2}'")
    return out, len(boxes)


def main():
    bad = False
    for path in sys.argv[1:]:
        out, n = clashes(path)
        for line in out:
            print(line)
        bad |= bool(out)
        if not out:
            print(f"ok   {path}: {n} texts, none overlapping or cut off")
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
