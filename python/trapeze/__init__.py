"""Trapeze from Python: the ghost-zone model, the simulator, calibration and
validation, each returning pandas DataFrames with the columns of the
corresponding CSV files.

    import trapeze
    best = trapeze.ghostzone("hotspot", gpu="gtx480")        # best h per sync mode
    rows = trapeze.ghostzone_rows("hotspot", gpu="gtx480")   # every valid h (the --csv columns)
    e = trapeze.evaluate("hotspot", h=2, sync="fence", gpu="gtx480")  # CPL and its gradient
    sim = trapeze.sim("gtx480", kernel="vecadd", params={"n": 4096})

Everything runs in-process through libtrapeze.so (ctypes): the model, the
simulator, calibration and validation; the tables come from the library's
own CSV writers, so they equal the command line's files byte for byte.
GPU, workload and calibration arguments take a file path or a shipped
preset name (gtx480, v100, hotspot, ...), as the command line does; a GPU
without --calibration uses the calibration shipped for it, and another
GPU's calibration is refused unless force_calibration=True.
"""
import ctypes
import difflib
import numbers
import os
import tempfile

import numpy as np
import pandas as pd

from ._lib import (CalibOptions, GzOptimum, TrapezeError, TrapezeFileNotFoundError,
                   TrapezeRuntimeError, TrapezeValueError, Workload, data_dir, lib)

__all__ = ["TrapezeError", "TrapezeValueError", "TrapezeFileNotFoundError",
           "TrapezeRuntimeError", "ghostzone", "ghostzone_rows", "evaluate", "sim", "calibrate",
           "validate", "samples", "param_names", "library_path", "data_dir", "sleep_calibrate"]

SYNC = {"relaunch": 0, "fence": 1}
SYNC_NAME = {v: k for k, v in SYNC.items()}
__version__ = "0.1.0"


def library_path():
    """The libtrapeze.so this package loaded."""
    return lib().path


def _did_you_mean(value, names):
    """'; did you mean NAME?' for the nearest of names, or '' when none is near."""
    near = difflib.get_close_matches(str(value), list(names), n=1)
    return f"; did you mean {near[0]!r}?" if near else ""


def _choice(what, value, allowed):
    """value if it is one of allowed, else a TrapezeValueError naming the nearest."""
    if isinstance(value, str) and value in allowed:
        return value
    raise TrapezeValueError(f"{what} {value!r}: expected one of {', '.join(allowed)}"
                            f"{_did_you_mean(value, allowed)}")


def _positive_int(what, value, lo=1):
    """value as an int when it is a whole number >= lo (2 and 2.0, not 2.5 or True)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and \
            float(value).is_integer() and value >= lo:
        return int(value)
    raise TrapezeValueError(f"{what} {value!r}: expected an integer >= {lo}")


_KIND = {"gpus": "GPU", "workloads": "workload", "calibrations": "calibration",
         "power": "power description"}


def _resolve(arg, folder, suffix):
    """A shipped preset's path (data/FOLDER/NAME.SUFFIX), or arg itself when it is
    a path (has a '/' or a '.'), which must exist."""
    what = _KIND.get(folder, folder)
    if not isinstance(arg, (str, os.PathLike)):
        raise TrapezeValueError(f"{what} {arg!r}: expected a preset name or a file path")
    arg = os.fspath(arg)
    if "/" in arg or "." in arg:
        if not os.path.exists(arg):
            raise TrapezeFileNotFoundError(f"{what} {arg}: no such file")
        return arg
    path = os.path.join(data_dir(), folder, arg + suffix)
    if not os.path.exists(path):
        names = sorted(f[:-len(suffix)] for f in os.listdir(os.path.join(data_dir(), folder))
                       if f.endswith(suffix))
        raise TrapezeValueError(f"{what} {arg}: no such preset{_did_you_mean(arg, names)} "
                                f"(presets: {', '.join(names)})")
    return path


class _Model:
    """One ghost-zone model handle (GPU, calibration, workload), freed on exit."""

    def __init__(self, workload, gpu, calibration, force_calibration, tau, spec_counts=False):
        L = lib()
        self.L = L
        self.err = ctypes.create_string_buffer(L.size["trapeze_error"])
        self.gpu = L.buffer("trapeze_gpu")
        self.work = Workload()
        self.params = L.buffer("trapeze_ghostzone_params")
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
                raise TrapezeFileNotFoundError(
                    f"no calibration shipped for GPU {self.gpu_name}: make one with "
                    f"trapeze.calibrate and pass calibration=FILE")
        else:
            calibration = _resolve(calibration, "calibrations", ".ini")
        self._check(L.so.trapeze_ghostzone_params_load(calibration.encode(), self.params, self.err))
        if not force_calibration:
            status = L.so.trapeze_ghostzone_params_check_gpu(self.params, self.gpu, self.err)
            L.check(status, self.err, f"{calibration}: ")
        self._check(L.so.trapeze_workload_load(_resolve(workload, "workloads", ".ini").encode(),
                                               ctypes.byref(self.work), self.err))
        self.workload_name = self.work.name.decode()
        # a stencil the calibration never saw is profiled on the GPU (four short
        # simulations), as `trapeze ghostzone` and `validate` do; paper mode and
        # spec_counts=True keep the spec's counts
        self.profiled_warp_instructions = 0.0
        if gpu and not spec_counts:
            work = ctypes.c_double()
            self._check(L.so.trapeze_ghostzone_profile_run(gpu_path.encode(), ctypes.byref(self.work), 1,
                                                   self.params, ctypes.byref(work), self.err))
            self.profiled_warp_instructions = work.value
        self.m = ctypes.c_void_p()
        self._check(L.so.trapeze_ghostzone_create(self.gpu, ctypes.byref(self.work), self.params,
                                           ctypes.byref(self.m), self.err))
        L.so.trapeze_ghostzone_set_tau(self.m, 1 if tau else 0)

    def _check(self, status):
        self.L.check(status, self.err)

    def close(self):
        if self.m:
            self.L.so.trapeze_ghostzone_destroy(self.m)
            self.m = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _syncs(sync):
    if _choice("sync", sync, ["relaunch", "fence", "best"]) == "best":
        return ["relaunch", "fence"]
    return [sync]


def evaluate(workload, h, sync="relaunch", gpu=None, calibration=None, blk_len=None,
             force_calibration=False, tau=False, spec_counts=False, continuous=False):
    """CPL at (h, blk_len) with its six components and its analytic gradient.

    Returns a dict: cpl_cycles, the per-loop components (*_cycles), trapezoids,
    dcpl_dh, dcpl_dblk, dcpl_d<parameter> for every model parameter, and the
    same gradient as NumPy arrays: grad_h_blk ([dcpl_dh, dcpl_dblk]) and
    grad_params (one entry per param_names(), in that order).

    h is a whole height from 1 to the workload's largest valid height;
    continuous=True evaluates the model's continuous relaxation at a fractional
    h >= 1 (what the optimizer searches; ghostzone's h_continuous) instead.

    With gpu given, a workload the calibration has no [profile.NAME] of is
    profiled on that GPU first (four short simulations), as `trapeze ghostzone`
    does; spec_counts=True uses the spec's own counts instead (here and in
    ghostzone and ghostzone_rows)."""
    _choice("sync", sync, list(SYNC))
    if continuous:
        if not (isinstance(h, numbers.Real) and not isinstance(h, bool) and h >= 1):
            raise TrapezeValueError(f"h {h!r}: expected a number >= 1")
        h = float(h)
    else:
        h = _positive_int("h", h)
    if blk_len is not None:
        blk_len = _positive_int("blk_len", blk_len)
    with _Model(workload, gpu, calibration, force_calibration, tau, spec_counts) as m:
        L = m.L
        e = L.GzEval()
        blk = blk_len if blk_len is not None else m.work.blk_len
        top = L.so.trapeze_ghostzone_max_height(m.m, blk)
        if not continuous and h > top:
            raise TrapezeValueError(f"h {h}: above {m.workload_name}'s largest valid height, "
                                    f"{top}, at block edge {blk}")
        m._check(L.so.trapeze_ghostzone_evaluate(m.m, SYNC[sync], float(h), float(blk),
                                          ctypes.byref(e), m.err))
        out = {"workload": m.workload_name, "gpu": m.gpu_name, "sync": sync, "h": h,
               "blk_len": blk, "trapezoids": e.trapezoids, "cpl_cycles": e.cpl}
        for i, name in enumerate(("glbsync", "loadsten", "commit", "itermem", "misccomp",
                                  "itercomp")):
            out[name + "_cycles"] = e.per_loop[i]
        out["dcpl_dh"], out["dcpl_dblk"] = e.dcpl_dh, e.dcpl_dblk
        for i, name in enumerate(param_names()):
            out["dcpl_d" + name] = e.dcpl_dparam[i]
        out["grad_h_blk"] = np.array([e.dcpl_dh, e.dcpl_dblk])
        out["grad_params"] = np.array(e.dcpl_dparam[:L.nparams])
        return out


def param_names():
    """The ghost-zone model's parameter names, in the calibration file's order."""
    L = lib()
    return [L.so.trapeze_ghostzone_param_name(i).decode() for i in range(L.nparams)]


def ghostzone(workload, gpu=None, calibration=None, sync="best", force_calibration=False,
              tau=False, optimize_block=False, spec_counts=False):
    """The best trapezoid height per sync mode (NLopt), one row per mode, with the
    columns of `trapeze ghostzone`'s table, meaning the same: workload, gpu, sync,
    h_continuous (h*), h (floor of h*, the dissertation's choice), h_argmin (the
    best integer height), cpl_cycles (CPL at h_argmin), speedup (CPL(1) /
    CPL(h_argmin)), delta, chosen (the mode of the best integer (mode, h));
    then cpl_floor_cycles (CPL at h) and blk_len."""
    rows = []
    with _Model(workload, gpu, calibration, force_calibration, tau, spec_counts) as m:
        L = m.L
        for s in _syncs(sync):
            o = GzOptimum()
            m._check(L.so.trapeze_ghostzone_optimize(m.m, SYNC[s], 1 if optimize_block else 0,
                                              ctypes.byref(o), m.err))
            rows.append({"workload": m.workload_name, "gpu": m.gpu_name, "sync": s,
                         "h_continuous": o.h_continuous, "h": o.h_floor, "h_argmin": o.h_argmin,
                         "cpl_cycles": o.cpl_argmin, "speedup": o.cpl_h1 / o.cpl_argmin,
                         "delta": L.so.trapeze_ghostzone_delta(m.m, float(o.blk_len)),
                         "chosen": None, "cpl_floor_cycles": o.cpl_floor,
                         "blk_len": o.blk_len})
    df = pd.DataFrame(rows)
    df["chosen"] = df.loc[df["cpl_cycles"].idxmin(), "sync"]
    return df


def ghostzone_rows(workload, gpu=None, calibration=None, sync="best", force_calibration=False,
                   tau=False, spec_counts=False):
    """One row per (sync, h) for every valid h: the columns of `trapeze ghostzone --csv`,
    written by the library itself."""
    frames = []
    with _Model(workload, gpu, calibration, force_calibration, tau, spec_counts) as m, \
            tempfile.TemporaryDirectory() as tmp:
        L = m.L
        cols = (ctypes.c_char_p * len(L.gz_csv_columns))(*[c.encode() for c in L.gz_csv_columns])
        blk = m.work.blk_len
        for s in _syncs(sync):
            path = os.path.join(tmp, s + ".csv")
            csv = ctypes.c_void_p()
            m._check(L.so.trapeze_csv_create(path.encode(), cols, len(L.gz_csv_columns),
                                             ctypes.byref(csv), m.err))
            status = L.so.trapeze_ghostzone_write_rows(m.m, SYNC[s], blk, csv, m.err)
            if status:
                L.so.trapeze_csv_abort(csv)
                m._check(status)
            m._check(L.so.trapeze_csv_commit(csv, m.err))
            frames.append(pd.read_csv(path))
    return pd.concat(frames, ignore_index=True)


class _Handles:
    """The library handles of one call, each released on exit whatever happens."""

    def __init__(self):
        self.L = lib()
        self.err = ctypes.create_string_buffer(self.L.size["trapeze_error"])
        self._release = []

    def own(self, handle, destroy):
        self._release.append((handle, destroy))
        return handle

    def check(self, status, prefix=""):
        self.L.check(status, self.err, prefix)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for handle, destroy in reversed(self._release):
            destroy(handle)


def _workload(h, name, size=None):
    """A workload spec loaded (preset or file), its grid set to size ("AxB[xC]")."""
    w = Workload()
    h.check(h.L.so.trapeze_workload_load(_resolve(name, "workloads", ".ini").encode(),
                                         ctypes.byref(w), h.err))
    if size is not None:
        parts = str(size).split("x")
        if len(parts) != w.dims or not all(p.isdigit() and int(p) > 0 for p in parts):
            raise TrapezeValueError(f"size {size}: expected {w.dims} positive whole numbers "
                               f"joined by 'x' for {w.name.decode()}")
        for i, p in enumerate(parts):
            w.data_len[i] = float(p)
    return w


def _config(h, gpu):
    cfg = ctypes.c_void_p()
    h.check(h.L.so.trapeze_config_load(_resolve(gpu, "gpus", ".config").encode(),
                                       ctypes.byref(cfg), h.err))
    return h.own(cfg, h.L.so.trapeze_config_destroy)


def _check_builtin(L, kernel, params):
    """kernel is a built-in (trapeze sim --list) and params name its parameters."""
    names = []
    while L.so.trapeze_sim_builtin(len(names), None):
        names.append(L.so.trapeze_sim_builtin(len(names), None).decode())
    i = names.index(_choice("kernel", kernel, names))
    allowed = []
    while L.so.trapeze_sim_builtin_param(i, len(allowed), None, None):
        allowed.append(L.so.trapeze_sim_builtin_param(i, len(allowed), None, None).decode())
    for name in params:
        _choice(f"{kernel} parameter", name, allowed)


def sim(gpu, kernel=None, params=None, workload=None, trace=None, h=None, sync=None,
        size=None, iterations=None, per_sm=False):
    """Runs the simulator in-process on a built-in kernel (with name=value params), a
    ghost-zone workload (h, sync, size, iterations) or an Accel-Sim trace
    (kernelslist.g), and returns the rows of `trapeze sim --csv` (or --per-sm-csv with
    per_sm=True), which the library writes."""
    chosen = [x for x in (kernel, workload, trace) if x is not None]
    if len(chosen) != 1:
        raise TrapezeValueError("sim: give exactly one of kernel, workload or trace")
    if sync is not None:
        _choice("sync", sync, list(SYNC))
    if h is not None:
        h = _positive_int("h", h)
    if iterations is not None:
        iterations = _positive_int("iterations", iterations)
    with _Handles() as H, tempfile.TemporaryDirectory() as tmp:
        so = H.L.so
        cfg = _config(H, gpu)
        s = ctypes.c_void_p()
        H.check(so.trapeze_sim_create(cfg, None, ctypes.byref(s), H.err))
        H.own(s, so.trapeze_sim_destroy)
        if kernel is not None:
            _check_builtin(H.L, kernel, params or {})
            settings = [f"{k}={v}".encode() for k, v in (params or {}).items()]
            argv = (ctypes.c_char_p * (len(settings) + 1))(*settings)
            H.check(so.trapeze_sim_run_builtin(s, kernel.encode(), len(settings), argv, H.err))
        elif trace is not None:
            H.check(so.trapeze_sim_run_trace(s, trace.encode(), H.err))
        else:
            w = _workload(H, workload, size)
            height = h if h is not None else (w.height or 1)
            out = H.L.buffer("trapeze_sim_stencil_result")
            H.check(so.trapeze_sim_run_stencil(s, ctypes.byref(w), SYNC[sync or "relaunch"],
                                               int(height), int(iterations or 0), out, H.err))
        path = os.path.join(tmp, "sim.csv")
        if per_sm:
            H.check(so.trapeze_sim_write_csv(s, None, path.encode(), H.err))
        else:
            H.check(so.trapeze_sim_write_csv(s, path.encode(), None, H.err))
        return pd.read_csv(path)


def samples(path):
    """A samples log (calibration or sweep) as a DataFrame."""
    return pd.read_csv(path)


_DEFAULT_WORKLOADS = ("pathfinder", "hotspot", "poisson", "cell")


_PLAN_OPTIONS = ("budget", "stages", "max_h", "sweep_budget", "min_fraction", "max_fraction",
                 "folds", "seed", "holdout", "tall", "logged_only")


def _options(H, options):
    """The command line's defaults, with options (budget=..., max_h=..., the names of
    calibrate's flags) over them."""
    opt = CalibOptions()
    H.L.so.trapeze_ghostzone_calib_options_init(ctypes.byref(opt))
    for name, value in options.items():
        _choice("calibration option", name, list(_PLAN_OPTIONS))
        kind = type(getattr(opt, name))
        if kind is int and name != "logged_only":
            value = _positive_int(name, value, lo=0)
        try:
            setattr(opt, name, kind(value))
        except (TypeError, ValueError):
            raise TrapezeValueError(f"{name} {value!r}: expected a number") from None
    return opt


def _plan(H, gpu, workloads, options):
    """A calibration plan for gpu over the workloads (the command line's defaults)."""
    names = list(workloads) or list(_DEFAULT_WORKLOADS)
    ws = (Workload * len(names))(*[_workload(H, n) for n in names])
    opt = _options(H, options)
    plan = ctypes.c_void_p()
    H.check(H.L.so.trapeze_ghostzone_plan_create(_resolve(gpu, "gpus", ".config").encode(), ws,
                                             len(names), ctypes.byref(opt),
                                             ctypes.byref(plan), H.err))
    return H.own(plan, H.L.so.trapeze_ghostzone_plan_destroy)


def _log(H, path):
    log = ctypes.c_void_p()
    H.check(H.L.so.trapeze_sample_log_open(path.encode(), ctypes.byref(log), H.err))
    return H.own(log, H.L.so.trapeze_sample_log_close)


def calibrate(gpu, samples_path, out, workloads=(), threads=1, **options):
    """Calibrates the ghost-zone model for gpu from short simulations, in-process
    (resumable: finished samples in samples_path are kept) and writes the calibration
    file out, as `trapeze calibrate` does. options: budget, stages, max_h, sweep_budget,
    min_fraction, max_fraction, folds, seed, holdout, tall=1 (the command's flags;
    tall is --tall-rows). Returns the
    samples log as a DataFrame."""
    with _Handles() as H:
        so = H.L.so
        plan = _plan(H, gpu, workloads, options)
        log = _log(H, samples_path)
        H.check(so.trapeze_ghostzone_run(plan, log, _positive_int("threads", threads), None, None, H.err))
        params = H.L.buffer("trapeze_ghostzone_params")
        report = H.L.buffer("trapeze_fit_report")
        H.check(so.trapeze_ghostzone_from_log(plan, log, params, report, H.err))
        H.check(so.trapeze_ghostzone_params_save(out.encode(), params, H.err))
    return pd.read_csv(samples_path)


def validate(gpu, calibration, samples_path=None, workloads=(), threads=1, curve=False,
             sweep_log=None, sizes=None, sweep_stages=None, force_calibration=False,
             **options):
    """Validates a calibration against full simulation, in-process; returns the rows
    of `trapeze validate --csv` (or --curve with curve=True). With sizes (area factors,
    e.g. [1, 16, 100]) it validates at those grid sizes, as `validate --sizes`; with
    logged_only=1 as well it simulates nothing and reads the runs sweep_log holds, as
    `--logged-only`. options: as calibrate's (the plan the calibration used)."""
    with _Handles() as H, tempfile.TemporaryDirectory() as tmp:
        so = H.L.so
        params = H.L.buffer("trapeze_ghostzone_params")
        calibration = _resolve(calibration, "calibrations", ".ini")
        H.check(so.trapeze_ghostzone_params_load(calibration.encode(), params, H.err))
        plan = _plan(H, gpu, workloads, options)
        if not force_calibration:
            H.check(so.trapeze_ghostzone_params_check_gpu(params, so.trapeze_ghostzone_plan_gpu(plan),
                                                   H.err), calibration + ": ")
        log = _log(H, samples_path) if samples_path and os.path.exists(samples_path) else None
        sweep = _log(H, sweep_log) if sweep_log else None
        path = os.path.join(tmp, "v.csv").encode()
        rows, points = (None, path) if curve else (path, None)
        if sizes:
            factors = (ctypes.c_double * len(sizes))(*[float(f) for f in sizes])
            v = H.own(H.L.buffer("trapeze_ghostzone_size_validation"), so.trapeze_ghostzone_size_validation_free)
            opt = _options(H, options)
            H.check(so.trapeze_ghostzone_validate_sizes(plan, params, factors, len(sizes),
                                                    int(sweep_stages or opt.stages), sweep,
                                                    _positive_int("threads", threads), None, None, v, H.err))
            H.check(so.trapeze_ghostzone_size_validation_write_csv(v, rows, points, H.err))
        else:
            v = H.own(H.L.buffer("trapeze_ghostzone_validation"), so.trapeze_ghostzone_validation_free)
            H.check(so.trapeze_ghostzone_validate(plan, params, log, sweep, _positive_int("threads", threads), None,
                                              None, v, H.err))
            H.check(so.trapeze_ghostzone_validation_write_csv(v, rows, points, H.err))
        return pd.read_csv(path.decode())


def sleep_calibrate(gpu, jobs, samples_path, out, window=20000, max_penalty=0.01, threads=1,
                    power=None, fit=False, spread=2500, jump=True):
    """Learns the sleep model from short windows, in-process, as `trapeze calibrate
    --model sleep` does: each job ("matmul n=128", or a workload with size=, iters=, h=,
    sync=: "hotspot size=64x64 iters=2") has its first `window` cycles simulated always
    on (with spread > 0, then a window of spread/5 cycles in every spread to the run's
    end, the run simulated through: `--spread`; 0: the first window only; with jump, the
    default as the command's, a jump sample instead where it costs under half the run,
    `--no-jump` is jump=False) (a row of
    samples_path, resumed like the command's), its idle periods fitted and
    per structure (l1d, l2, rf) the thresholds chosen within max_penalty. Returns the
    result CSV out (gpu, kernel, structure, thresholds, pred_saving, pred_penalty,
    fit_ks, window_cycles, sampled_cycles, cut) as a DataFrame."""
    with _Handles() as H:
        so = H.L.so
        cfg = _config(H, gpu)
        g = H.L.buffer("trapeze_gpu")
        H.check(so.trapeze_gpu_from_config(cfg, g, H.err))
        name = ctypes.string_at(ctypes.addressof(g)).decode()
        pw = H.L.buffer("trapeze_power")
        H.check(so.trapeze_power_load(_resolve(power or name, "power", ".ini").encode(), pw,
                                      H.err))
        size = H.L.size["trapeze_sleep_job"]
        buf = ctypes.create_string_buffer(size * max(len(jobs), 1))
        for i, spec in enumerate(jobs):
            head = spec.split()[0]
            w = None if so.trapeze_sleep_job_is_builtin(head.encode()) else _workload(H, head)
            H.check(so.trapeze_sleep_job_parse(spec.encode(), ctypes.byref(w) if w else None,
                                               ctypes.addressof(buf) + i * size, H.err))
        plan = ctypes.c_void_p()
        H.check(so.trapeze_sleep_plan_create(cfg, pw, buf, len(jobs), float(window),
                                             -float(spread) if jump and spread > 0 else float(spread),
                                             float(max_penalty), int(bool(fit)),
                                             ctypes.byref(plan), H.err))
        H.own(plan, so.trapeze_sleep_plan_destroy)
        log = ctypes.c_void_p()
        schema = ctypes.addressof(ctypes.c_char.in_dll(so, "trapeze_sleep_schema"))
        H.check(so.trapeze_sample_log_open_schema(samples_path.encode(), schema,
                                                  ctypes.byref(log), H.err))
        H.own(log, so.trapeze_sample_log_close)
        H.check(so.trapeze_samples_run(so.trapeze_sleep_plan_set(plan), log, _positive_int("threads", threads),
                                       None, None, H.err))
        H.check(so.trapeze_sleep_calib_write_csv(plan, log, out.encode(), H.err))
    return pd.read_csv(out)
