"""What the notebooks' figures share: where they are written and how a height
axis is drawn. Each notebook imports it from its own folder (nbconvert and
Jupyter run a notebook there).

save() writes a figure as a PNG and leaves it open, so that Jupyter shows it
inline under its cell and the HTML report (scripts/run-notebooks.sh) carries
the picture, not a file name. No data is read or computed here.
"""
import os

from matplotlib.ticker import FormatStrFormatter, LogLocator, MaxNLocator, NullFormatter

FIG_DIR = os.environ.get("TRAPEZE_FIG_DIR", "figures")


def save(fig, name, **options):
    """fig as FIG_DIR/name (a PNG); fig stays open to be shown inline."""
    os.makedirs(FIG_DIR, exist_ok=True)
    fig.savefig(os.path.join(FIG_DIR, name), **options)


def integer_axis(ax, which="x"):
    """Whole-number ticks on an axis of heights (or other counts): 1, 2, 3 ... on a
    linear axis, 1, 2, 5, 10, 20 ... on a log one (never 10^0 or 2.5). Call it after
    the axis's scale is set."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    scale = ax.get_xscale() if which == "x" else ax.get_yscale()
    if scale == "log":
        axis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
        axis.set_major_formatter(FormatStrFormatter("%d"))
        axis.set_minor_formatter(NullFormatter())
    else:
        axis.set_major_locator(MaxNLocator(integer=True))
