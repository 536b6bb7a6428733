#!/usr/bin/env python3
"""Fills page.html's four markers as stampede does, to preview the report or test it without C++.

Usage: python3 assemble.py UPLOT_DIR DATA.json OUT.html
UPLOT_DIR is an installed node_modules/uplot (npm ci beside package-lock.json).
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MARKERS = ('/*STAMPEDE:UPLOT_CSS*/', '/*STAMPEDE:UPLOT_JS*/', '/*STAMPEDE:PAGE_JS*/',
           '/*STAMPEDE:RUN_DATA*/')
# What would end a <script> or <style> early, or (<!-- then <script) keep its end tag from
# ending it.
UNSAFE = re.compile(r'</|<!--', re.IGNORECASE)


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def embeddable(name, text):
    """An asset goes in as it is, so it must hold nothing that ends its element."""
    if UNSAFE.search(text):
        sys.exit(f'assemble.py: {name} holds "</" or "<!--", which would break the page')
    return text


def escaped_data(text):
    """The run's JSON with '</' as '<\\/' and '<!--' as '\\u003c!--': the same to JSON.parse."""
    json.loads(text)  # only a valid document goes in
    return text.replace('</', '<\\/').replace('<!--', '\\u003c!--')


def fill(template, parts):
    """Replaces each marker, which must occur once, in one pass: inserted text is not searched."""
    pieces = re.split('(' + '|'.join(re.escape(m) for m in MARKERS) + ')', template)
    found = pieces[1::2]
    if sorted(found) != sorted(MARKERS):
        sys.exit(f'assemble.py: page.html must hold each marker once, holds {found}')
    return ''.join(parts.get(piece, piece) for piece in pieces)


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__.strip())
    uplot, data, out = argv[1:]
    parts = {
        MARKERS[0]: embeddable('uPlot.min.css', read(os.path.join(uplot, 'dist', 'uPlot.min.css'))),
        MARKERS[1]: embeddable('uPlot.iife.min.js',
                               read(os.path.join(uplot, 'dist', 'uPlot.iife.min.js'))),
        MARKERS[2]: embeddable('page.js', read(os.path.join(HERE, 'page.js'))),
        MARKERS[3]: escaped_data(read(data)),
    }
    with open(out, 'w', encoding='utf-8') as f:
        f.write(fill(read(os.path.join(HERE, 'page.html')), parts))


if __name__ == '__main__':
    main(sys.argv)
