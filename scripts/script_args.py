"""Argument splitting shared by the scripts/ tools written in Python.

Owns one thing: separating options that take one value each from positional
arguments. It must not know any script's options or usage text.
"""
import sys


def split(argv, opts):
    """Fills opts (option name -> default) from argv, each option followed by
    its value; returns the positional arguments in order. An option given
    without a value exits with a message naming it."""
    pos, it = [], iter(argv)
    for a in it:
        if a in opts:
            opts[a] = next(it, None)
            if opts[a] is None:
                sys.exit(f"{a} needs a value")
        else:
            pos.append(a)
    return pos
