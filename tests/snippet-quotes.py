#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A test's snippet is one single-quoted word, from the line of
test_expect "NAME" ' to a line that is only '.  A quote inside it (an
apostrophe in a comment: "LAVA's") ends the snippet there: the rest of
the test runs outside it, at the file's top level, uncounted, and a
failure there fails nothing.  Inside a snippet a quote is written
'"'"' or '\\''; this names every other one, FILE:LINE, and exits 1.

    tests/snippet-quotes.py FILE...
"""
import re
import sys

IDIOMS = ("'\"'\"'", "'\\''")
NAME = re.compile(r'^test_expect +"(?:[^"\\]|\\.)*"')


def check(path):
    bad = 0
    start = None
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        text = line.rstrip("\n")
        if start is None:
            # the quotes after the test's name
            opened = NAME.sub("", text)
            for idiom in IDIOMS:
                opened = opened.replace(idiom, "")
            # an odd number of quotes: the snippet goes on below
            if NAME.match(text) and opened.count("'") % 2:
                start = n
            continue
        if text == "'":
            start = None
            continue
        for idiom in IDIOMS:
            text = text.replace(idiom, "")
        if "'" in text:
            print("%s:%d: a quote ends the snippet of line %d: write "
                  "'\"'\"' (or leave the word out): %s"
                  % (path, n, start, line.strip()))
            bad += 1
    if start is not None:
        print("%s:%d: the snippet never ends (a line of only ')"
              % (path, start))
        bad += 1
    return bad


def main():
    bad = 0
    for p in sys.argv[1:]:
        bad += check(p)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
