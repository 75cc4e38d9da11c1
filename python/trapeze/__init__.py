"""Trapeze from Python: the ghost-zone model, the simulator, calibration and
validation, each returning pandas DataFrames with the columns of the
corresponding CSV files.

    import trapeze
    best = trapeze.ghostzone("hotspot", gpu="gtx480")        # best h per sync mode
    rows = trapeze.ghostzone_rows("hotspot", gpu="gtx480")   # every valid h (the --csv columns)
    e = trapeze.evaluate("hotspot", h=2, sync="fence", gpu="gtx480")  # CPL and its gradient
    sim = trapeze.sim("gtx480", kernel="vecadd", params={"n": 4096})

The model runs in-process through libtrapeze.so (ctypes); simulation,
calibration and validation run the trapeze program, whose CSV they read.
GPU, workload and calibration arguments take a file path or a shipped
preset name (gtx480, v100, hotspot, ...), as the command line does; a GPU
without --calibration uses the calibration shipped for it, and another
GPU's calibration is refused unless force_calibration=True.
"""
import ctypes
import os
import subprocess
import tempfile

import pandas as pd

from ._lib import GzOptimum, TrapezeError, Workload, data_dir, lib, program

__all__ = ["TrapezeError", "ghostzone", "ghostzone_rows", "evaluate", "sim", "calibrate",
           "validate", "samples", "param_names", "library_path"]

SYNC = {"relaunch": 0, "fence": 1}
SYNC_NAME = {v: k for k, v in SYNC.items()}
__version__ = "0.1.0"


def library_path():
    """The libtrapeze.so this package loaded."""
    return lib().path


def _resolve(arg, folder, suffix):
    if "/" in arg or "." in arg:
        return arg
    path = os.path.join(data_dir(), folder, arg + suffix)
    if not os.path.exists(path):
        names = sorted(f[:-len(suffix)] for f in os.listdir(os.path.join(data_dir(), folder))
                       if f.endswith(suffix))
        raise TrapezeError(f"{arg}: no such preset (presets: {', '.join(names)})")
    return path


class _Model:
    """One ghost-zone model handle (GPU, calibration, workload), freed on exit."""

    def __init__(self, workload, gpu, calibration, force_calibration, tau):
        L = lib()
        self.L = L
        self.err = ctypes.create_string_buffer(L.size["trapeze_error"])
        self.gpu = L.buffer("trapeze_gpu")
        self.work = Workload()
        self.params = L.buffer("trapeze_gz_params")
        cfg = ctypes.c_void_p()
        gpu_path = _resolve(gpu or "gtx280", "gpus", ".config")
        self._check(L.so.trapeze_config_load(gpu_path.encode(), ctypes.byref(cfg), self.err))
        status = L.so.trapeze_gpu_from_config(cfg, self.gpu, self.err)
        L.so.trapeze_config_destroy(cfg)
        self._check(status)
        self.gpu_name = ctypes.string_at(self.gpu).decode()
        if calibration is None:
            calibration = os.path.join(data_dir(), "calibrations",
                                       (self.gpu_name if gpu else "gtx280-meng2010") + ".ini")
            if not os.path.exists(calibration):
                raise TrapezeError(f"no calibration shipped for GPU {self.gpu_name}: make one "
                                   f"with trapeze.calibrate and pass calibration=FILE")
        else:
            calibration = _resolve(calibration, "calibrations", ".ini")
        self._check(L.so.trapeze_gz_params_load(calibration.encode(), self.params, self.err))
        if not force_calibration:
            status = L.so.trapeze_gz_params_check_gpu(self.params, self.gpu, self.err)
            if status:
                raise TrapezeError(f"{calibration}: {self._message()}")
        self._check(L.so.trapeze_workload_load(_resolve(workload, "workloads", ".ini").encode(),
                                               ctypes.byref(self.work), self.err))
        self.workload_name = self.work.name.decode()
        self.m = ctypes.c_void_p()
        self._check(L.so.trapeze_gz_create(self.gpu, ctypes.byref(self.work), self.params,
                                           ctypes.byref(self.m), self.err))
        L.so.trapeze_gz_set_tau(self.m, 1 if tau else 0)

    def _message(self):
        return ctypes.cast(ctypes.addressof(self.err) + ctypes.sizeof(ctypes.c_int),
                           ctypes.c_char_p).value.decode(errors="replace")

    def _check(self, status):
        if status != 0:
            raise TrapezeError(self._message())

    def close(self):
        if self.m:
            self.L.so.trapeze_gz_destroy(self.m)
            self.m = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _syncs(sync):
    if sync == "best":
        return ["relaunch", "fence"]
    if sync not in SYNC:
        raise TrapezeError(f"sync: expected relaunch, fence or best, got {sync!r}")
    return [sync]


def evaluate(workload, h, sync="relaunch", gpu=None, calibration=None, blk_len=None,
             force_calibration=False, tau=False):
    """CPL at (h, blk_len) with its six components and its analytic gradient.

    Returns a dict: cpl_cycles, the per-loop components (*_cycles), trapezoids,
    dcpl_dh, dcpl_dblk and dcpl_d<parameter> for every model parameter."""
    with _Model(workload, gpu, calibration, force_calibration, tau) as m:
        L = m.L
        e = L.GzEval()
        blk = float(blk_len if blk_len is not None else m.work.blk_len)
        m._check(L.so.trapeze_gz_evaluate(m.m, SYNC[sync], float(h), blk, ctypes.byref(e), m.err))
        out = {"workload": m.workload_name, "gpu": m.gpu_name, "sync": sync, "h": h,
               "blk_len": blk, "trapezoids": e.trapezoids, "cpl_cycles": e.cpl}
        for i, name in enumerate(("glbsync", "loadsten", "commit", "itermem", "misccomp",
                                  "itercomp")):
            out[name + "_cycles"] = e.per_loop[i]
        out["dcpl_dh"], out["dcpl_dblk"] = e.dcpl_dh, e.dcpl_dblk
        for i, name in enumerate(param_names()):
            out["dcpl_d" + name] = e.dcpl_dparam[i]
        return out


def param_names():
    """The ghost-zone model's parameter names, in the calibration file's order."""
    L = lib()
    return [L.so.trapeze_gz_param_name(i).decode() for i in range(L.nparams)]


def ghostzone(workload, gpu=None, calibration=None, sync="best", force_calibration=False,
              tau=False, optimize_block=False):
    """The best trapezoid height per sync mode (NLopt), one row per mode:
    workload, gpu, sync, h_continuous, h (floor of h*), h_argmin, cpl_cycles
    (at h), cpl_argmin_cycles, speedup (CPL(1)/CPL(h)), delta, blk_len, chosen."""
    rows = []
    with _Model(workload, gpu, calibration, force_calibration, tau) as m:
        L = m.L
        for s in _syncs(sync):
            o = GzOptimum()
            m._check(L.so.trapeze_gz_optimize(m.m, SYNC[s], 1 if optimize_block else 0,
                                              ctypes.byref(o), m.err))
            rows.append({"workload": m.workload_name, "gpu": m.gpu_name, "sync": s,
                         "h_continuous": o.h_continuous, "h": o.h_floor, "h_argmin": o.h_argmin,
                         "cpl_cycles": o.cpl_floor, "cpl_argmin_cycles": o.cpl_argmin,
                         "speedup": o.cpl_h1 / o.cpl_floor,
                         "delta": L.so.trapeze_gz_delta(m.m, float(o.blk_len)),
                         "blk_len": o.blk_len})
    df = pd.DataFrame(rows)
    df["chosen"] = df.loc[df["cpl_cycles"].idxmin(), "sync"]
    return df


def ghostzone_rows(workload, gpu=None, calibration=None, sync="best", force_calibration=False,
                   tau=False):
    """One row per (sync, h) for every valid h: the columns of `trapeze ghostzone --csv`,
    written by the library itself."""
    frames = []
    with _Model(workload, gpu, calibration, force_calibration, tau) as m, \
            tempfile.TemporaryDirectory() as tmp:
        L = m.L
        cols = (ctypes.c_char_p * len(L.gz_csv_columns))(*[c.encode() for c in L.gz_csv_columns])
        blk = m.work.blk_len
        for s in _syncs(sync):
            path = os.path.join(tmp, s + ".csv")
            csv = ctypes.c_void_p()
            m._check(L.so.trapeze_csv_create(path.encode(), cols, len(L.gz_csv_columns),
                                             ctypes.byref(csv), m.err))
            status = L.so.trapeze_gz_write_rows(m.m, SYNC[s], blk, csv, m.err)
            if status:
                L.so.trapeze_csv_abort(csv)
                m._check(status)
            m._check(L.so.trapeze_csv_commit(csv, m.err))
            frames.append(pd.read_csv(path))
    return pd.concat(frames, ignore_index=True)


def _run(args):
    p = subprocess.run([program()] + args, capture_output=True, text=True)
    if p.returncode != 0:
        raise TrapezeError(p.stderr.strip() or f"trapeze {' '.join(args)}: exit {p.returncode}")
    return p


def sim(gpu, kernel=None, params=None, workload=None, trace=None, h=None, sync=None,
        size=None, iterations=None, per_sm=False):
    """Runs the simulator on a built-in kernel (with name=value params), a ghost-zone
    workload (h, sync, size, iterations) or an Accel-Sim trace (kernelslist.g), and
    returns the rows of `trapeze sim --csv` (or --per-sm-csv with per_sm=True)."""
    gpu = _resolve(gpu, "gpus", ".config")
    chosen = [x for x in (kernel, workload, trace) if x is not None]
    if len(chosen) != 1:
        raise TrapezeError("sim: give exactly one of kernel, workload or trace")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "sim.csv")
        args = ["sim", "--gpu", gpu, "--quiet"]
        if per_sm and workload is None:
            args += ["--csv", os.path.join(tmp, "all.csv"), "--per-sm-csv", out]
        else:
            args += ["--csv", out]
        if kernel is not None:
            args += [kernel] + [f"{k}={v}" for k, v in (params or {}).items()]
        elif trace is not None:
            args += ["--trace", trace]
        else:
            args += ["--workload", workload]
            for flag, v in (("--h", h), ("--sync", sync), ("--size", size),
                            ("--iterations", iterations)):
                if v is not None:
                    args += [flag, str(v)]
        _run(args)
        return pd.read_csv(out)


def samples(path):
    """A samples log (calibration or sweep) as a DataFrame."""
    return pd.read_csv(path)


def calibrate(gpu, samples_path, out, workloads=(), threads=1, budget=None):
    """Calibrates the ghost-zone model for gpu from short simulations (resumable:
    finished samples in samples_path are kept) and writes the calibration file
    out. Returns the samples log as a DataFrame."""
    args = ["calibrate", "--gpu", gpu, "--samples", samples_path, "--out", out,
            "--threads", str(threads)]
    if budget is not None:
        args += ["--budget", str(budget)]
    _run(args + list(workloads))
    return pd.read_csv(samples_path)


def validate(gpu, calibration, samples_path=None, workloads=(), threads=1, curve=False,
             sweep_log=None):
    """Validates a calibration against full simulation; returns the rows of
    `trapeze validate --csv` (or --curve with curve=True)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "v.csv")
        args = ["validate", "--gpu", gpu, "--calibration", calibration,
                "--threads", str(threads), "--curve" if curve else "--csv", out]
        if samples_path:
            args += ["--samples", samples_path]
        if sweep_log:
            args += ["--sweep-log", sweep_log]
        _run(args + list(workloads))
        return pd.read_csv(out)
