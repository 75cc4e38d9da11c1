#!/usr/bin/env python3
"""Coalesced segments a ghost-zone tile's staging loads touch, per element
loaded: every warp's 32 consecutive threads of a block (x fastest) load one
element each of the staged tile, whose origin is the output tile's less the
halo; a warp's loads touch the distinct 128-byte segments of their addresses.
Printed as elements' worth of segments fetched per element loaded, at h = 1
and 2, for the workloads of docs/calibration.md ("The third round") at their
1x grids. No simulation: the geometry only.

Usage: scripts/gz-warp-segments.py
"""
import itertools
import math


def segments_per_element(dims, blk, radius, size, h, seg=32, warp=32):
    out = blk - 2 * radius * h
    tiles = [math.ceil(s / out) for s in size]
    requests = elements = 0
    for b in itertools.product(*[range(k) for k in tiles]):
        origin = [bi * out - radius * h for bi in b]
        for w0 in range(0, blk ** dims, warp):
            touched = set()
            for t in range(w0, min(w0 + warp, blk ** dims)):
                coord, rest = [], t
                for d in range(dims):
                    coord.append(origin[d] + rest % blk)
                    rest //= blk
                if any(c < 0 or c >= size[d] for d, c in enumerate(coord)):
                    continue  # outside the grid: not loaded
                linear, stride = 0, 1
                for d in range(dims):
                    linear += coord[d] * stride
                    stride *= size[d]
                touched.add(linear // seg)
                elements += 1
            requests += len(touched)
    return requests / elements * seg


WORKLOADS = [("Box9", 2, 16, 1, (266, 266)), ("Poisson", 2, 20, 1, (171, 171)),
             ("HotSpot", 2, 20, 1, (148, 148)), ("Star7", 3, 8, 1, (34, 34, 34)),
             ("Multi1D", 1, 128, 2, (26040,)), ("PathFinder", 1, 256, 1, (30000,)),
             ("Cell", 3, 8, 1, (40, 40, 40))]

if __name__ == "__main__":
    for name, dims, blk, radius, size in WORKLOADS:
        print(name, " ".join("h=%d %.3f" % (h, segments_per_element(dims, blk, radius, size, h))
                             for h in (1, 2)))
