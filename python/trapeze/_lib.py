"""Loading libtrapeze.so with ctypes and mirroring the few structs Python reads.

Owns the C boundary only: finding the library and the data folder (the
package's own lib/ and data/, bundled by setup.py, after TRAPEZE_LIB and
TRAPEZE_DATA), the function prototypes, the struct mirrors, each checked
against the C size (trapeze_struct_size) at load so a layout change fails at
import, not as corrupted memory, and the exceptions, one per cause, that a
library status code becomes. No model or simulator logic lives here.
"""
import ctypes
import ctypes.util
import os
import shutil

_HERE = os.path.dirname(os.path.abspath(__file__))
_TREE = os.path.abspath(os.path.join(_HERE, "..", ".."))   # python/trapeze -> the source tree


class TrapezeError(Exception):
    """Base of every error the package raises; the message names file, line and
    field where it can. Each is also the built-in exception of its cause."""


class TrapezeValueError(TrapezeError, ValueError):
    """A bad argument (a height that is not a positive integer, an unknown sync
    mode, preset or option) or bad input (a malformed or out-of-range value in
    a file: the library's parse, range and argument errors)."""


class TrapezeFileNotFoundError(TrapezeError, FileNotFoundError):
    """A file, the library or the data folder that is not there."""


class TrapezeRuntimeError(TrapezeError, RuntimeError):
    """A failure while running: I/O, memory, a numerical method that failed."""


# the library's status codes (trapeze_status in trapeze.h)
EIO, EPARSE, ERANGE, EINVAL = 1, 2, 3, 4


def error_for(code, message):
    """The exception of a library status code and its message."""
    if code in (EPARSE, ERANGE, EINVAL):
        return TrapezeValueError(message)
    if code == EIO and "No such file" in message:
        return TrapezeFileNotFoundError(message)
    return TrapezeRuntimeError(message)


def _candidates():
    env = os.environ.get("TRAPEZE_LIB")
    if env:
        yield env
    yield os.path.join(_HERE, "lib", "libtrapeze.so")               # make install / pip install
    yield os.path.join(_TREE, "build", "libtrapeze.so")             # the source tree
    found = ctypes.util.find_library("trapeze")
    if found:
        yield found


def data_dir():
    """Where the shipped data/ (GPU configs, workloads, calibrations) is."""
    for d in (os.environ.get("TRAPEZE_DATA"), os.path.join(_HERE, "data"),
              os.path.join(_TREE, "data"), "/usr/local/share/trapeze", "/usr/share/trapeze"):
        if d and os.path.isdir(os.path.join(d, "gpus")):
            return d
    raise TrapezeFileNotFoundError("cannot find Trapeze's data folder: set TRAPEZE_DATA")


def program():
    """The trapeze command-line program beside the library (for the simulator runs)."""
    for p in (os.environ.get("TRAPEZE_PROGRAM"), os.path.join(_TREE, "build", "trapeze"),
              shutil.which("trapeze")):
        if p and os.access(p, os.X_OK):
            return p
    raise TrapezeFileNotFoundError("cannot find the trapeze program: set TRAPEZE_PROGRAM")


class Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 768)]


NCOMPONENTS = 6


def _gz_eval_struct(nparams):
    class GzEval(ctypes.Structure):
        _fields_ = [("trapezoids", ctypes.c_double), ("passes", ctypes.c_double),
                    ("stage", ctypes.c_double * NCOMPONENTS),
                    ("per_loop", ctypes.c_double * NCOMPONENTS),
                    ("cps", ctypes.c_double), ("cpl", ctypes.c_double),
                    ("dcpl_dh", ctypes.c_double), ("dcpl_dblk", ctypes.c_double),
                    ("dcpl_dparam", ctypes.c_double * nparams)]
    return GzEval


MAX_DIMS = 3
MAX_AUX_ARRAYS = 8
MAX_OFFSETS = 343


class Workload(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 64), ("path", ctypes.c_char * 256),
                ("dims", ctypes.c_int), ("data_len", ctypes.c_double * MAX_DIMS),
                ("halo", ctypes.c_int * MAX_DIMS), ("blk_len", ctypes.c_int),
                ("regs_per_thread", ctypes.c_int), ("star", ctypes.c_int),
                ("aux_halo", ctypes.c_int * MAX_AUX_ARRAYS),
                ("stencil_arrays", ctypes.c_int), ("elem_per_op", ctypes.c_double),
                ("element_bytes", ctypes.c_int), ("iterations", ctypes.c_int),
                ("height", ctypes.c_int), ("profile_elements", ctypes.c_double),
                ("insts_per_sm_mc", ctypes.c_double), ("insts_per_sm_ic", ctypes.c_double),
                ("bank_conflict_rate", ctypes.c_double), ("setup_insts", ctypes.c_double),
                ("shape_given", ctypes.c_int), ("n_offsets", ctypes.c_int),
                ("offsets", ctypes.c_short * (MAX_OFFSETS * MAX_DIMS)),
                ("element_type", ctypes.c_int), ("flops_per_point", ctypes.c_int),
                ("sfu_per_point", ctypes.c_int), ("counts_source", ctypes.c_int)]


class GzOptimum(ctypes.Structure):
    _fields_ = [("sync", ctypes.c_int), ("h_continuous", ctypes.c_double),
                ("h_floor", ctypes.c_int), ("h_argmin", ctypes.c_int), ("blk_len", ctypes.c_int),
                ("blk_continuous", ctypes.c_double), ("cpl_floor", ctypes.c_double),
                ("cpl_argmin", ctypes.c_double), ("cpl_h1", ctypes.c_double),
                ("evaluations", ctypes.c_int)]


class CalibOptions(ctypes.Structure):
    _fields_ = [("budget", ctypes.c_int), ("stages", ctypes.c_int), ("max_h", ctypes.c_int),
                ("sweep_budget", ctypes.c_double), ("min_fraction", ctypes.c_double),
                ("max_fraction", ctypes.c_double), ("folds", ctypes.c_int),
                ("seed", ctypes.c_ulong), ("fit_mask", ctypes.c_uint),
                ("real_tiles", ctypes.c_int), ("structure", ctypes.c_uint),
                ("holdout", ctypes.c_double), ("identify", ctypes.c_int),
                ("tall", ctypes.c_int), ("logged_only", ctypes.c_int)]


class Lib:
    """The loaded library, its prototypes and its struct sizes."""

    def __init__(self):
        errors = []
        self.so = None
        for path in _candidates():
            try:
                self.so = ctypes.CDLL(path)
                self.path = path
                break
            except OSError as e:
                errors.append(f"{path}: {e}")
        if self.so is None:
            raise TrapezeFileNotFoundError("cannot load libtrapeze.so (build it with make, or "
                                           "set TRAPEZE_LIB): " + "; ".join(errors))
        so = self.so
        so.trapeze_struct_size.restype = ctypes.c_size_t
        so.trapeze_struct_size.argtypes = [ctypes.c_char_p]
        self.size = {n: so.trapeze_struct_size(n.encode()) for n in
                     ("trapeze_error", "trapeze_gpu", "trapeze_workload", "trapeze_ghostzone_params",
                      "trapeze_ghostzone_eval", "trapeze_ghostzone_optimum", "trapeze_ghostzone_calib_options",
                      "trapeze_fit_report", "trapeze_ghostzone_validation",
                      "trapeze_ghostzone_size_validation", "trapeze_sim_stencil_result",
                      "trapeze_power", "trapeze_sleep_job")}
        # the eval struct ends with one double per parameter: derive their count
        base = ctypes.sizeof(_gz_eval_struct(0))
        self.nparams = (self.size["trapeze_ghostzone_eval"] - base) // 8
        self.GzEval = _gz_eval_struct(self.nparams)
        for name, mirror in (("trapeze_error", Error), ("trapeze_ghostzone_eval", self.GzEval),
                             ("trapeze_workload", Workload),
                             ("trapeze_ghostzone_optimum", GzOptimum),
                             ("trapeze_ghostzone_calib_options", CalibOptions)):
            if ctypes.sizeof(mirror) != self.size[name]:
                raise TrapezeRuntimeError(f"{self.path}: struct {name} is {self.size[name]} bytes, "
                                   f"the binding's mirror {ctypes.sizeof(mirror)}: rebuild both")
        P, I, D = ctypes.c_void_p, ctypes.c_int, ctypes.c_double
        proto = {
            "trapeze_config_load": (I, [ctypes.c_char_p, ctypes.POINTER(P), P]),
            "trapeze_config_destroy": (None, [P]),
            "trapeze_gpu_from_config": (I, [P, P, P]),
            "trapeze_workload_load": (I, [ctypes.c_char_p, P, P]),
            "trapeze_ghostzone_params_load": (I, [ctypes.c_char_p, P, P]),
            "trapeze_ghostzone_params_default": (None, [P]),
            "trapeze_ghostzone_params_check_gpu": (I, [P, P, P]),
            "trapeze_ghostzone_create": (I, [P, P, P, ctypes.POINTER(P), P]),
            "trapeze_ghostzone_destroy": (None, [P]),
            "trapeze_ghostzone_set_tau": (None, [P, I]),
            "trapeze_ghostzone_evaluate": (I, [P, I, D, D, P, P]),
            "trapeze_ghostzone_optimize": (I, [P, I, I, P, P]),
            "trapeze_ghostzone_max_height": (I, [P, I]),
            "trapeze_ghostzone_delta": (D, [P, D]),
            "trapeze_ghostzone_param_name": (ctypes.c_char_p, [I]),
            "trapeze_csv_create": (I, [ctypes.c_char_p, P, I, ctypes.POINTER(P), P]),
            "trapeze_csv_commit": (I, [P, P]),
            "trapeze_csv_abort": (None, [P]),
            "trapeze_ghostzone_write_rows": (I, [P, I, I, P, P]),
            "trapeze_ghostzone_params_save": (I, [ctypes.c_char_p, P, P]),
            # the simulator
            "trapeze_sim_create": (I, [P, P, ctypes.POINTER(P), P]),
            "trapeze_sim_destroy": (None, [P]),
            "trapeze_sim_run_builtin": (I, [P, ctypes.c_char_p, I,
                                            ctypes.POINTER(ctypes.c_char_p), P]),
            "trapeze_sim_run_trace": (I, [P, ctypes.c_char_p, P]),
            "trapeze_sim_run_stencil": (I, [P, P, I, I, I, P, P]),
            "trapeze_sim_write_csv": (I, [P, ctypes.c_char_p, ctypes.c_char_p, P]),
            "trapeze_sim_builtin": (ctypes.c_char_p, [I, P]),
            "trapeze_sim_builtin_param": (ctypes.c_char_p, [I, I, P, P]),
            # calibration and validation
            "trapeze_ghostzone_calib_options_init": (None, [P]),
            "trapeze_ghostzone_plan_create": (I, [ctypes.c_char_p, P, I, P, ctypes.POINTER(P), P]),
            "trapeze_ghostzone_plan_destroy": (None, [P]),
            "trapeze_ghostzone_plan_gpu": (P, [P]),
            "trapeze_sample_log_open": (I, [ctypes.c_char_p, ctypes.POINTER(P), P]),
            "trapeze_sample_log_close": (None, [P]),
            "trapeze_ghostzone_run": (I, [P, P, I, P, P, P]),
            "trapeze_ghostzone_from_log": (I, [P, P, P, P, P]),
            "trapeze_ghostzone_validate": (I, [P, P, P, P, I, P, P, P, P]),
            "trapeze_ghostzone_profile_run": (I, [ctypes.c_char_p, P, I, P, ctypes.POINTER(D), P]),
            "trapeze_ghostzone_validate_sizes": (I, [P, P, ctypes.POINTER(D), I, I, P, I, P, P, P,
                                                 P]),
            "trapeze_ghostzone_validation_free": (None, [P]),
            "trapeze_ghostzone_size_validation_free": (None, [P]),
            "trapeze_ghostzone_validation_write_csv": (I, [P, ctypes.c_char_p, ctypes.c_char_p, P]),
            "trapeze_ghostzone_size_validation_write_csv": (I, [P, ctypes.c_char_p, ctypes.c_char_p, P]),
            # the sleep model's calibration from short windows
            "trapeze_power_load": (I, [ctypes.c_char_p, P, P]),
            "trapeze_sleep_job_is_builtin": (I, [ctypes.c_char_p]),
            "trapeze_sleep_job_parse": (I, [ctypes.c_char_p, P, P, P]),
            "trapeze_sleep_plan_create": (I, [P, P, P, I, D, D, D, I, ctypes.POINTER(P), P]),
            "trapeze_sleep_plan_destroy": (None, [P]),
            "trapeze_sleep_plan_set": (P, [P]),
            "trapeze_sample_log_open_schema": (I, [ctypes.c_char_p, P, ctypes.POINTER(P), P]),
            "trapeze_samples_run": (I, [P, P, I, P, P, P]),
            "trapeze_sleep_calib_write_csv": (I, [P, P, ctypes.c_char_p, P]),
        }
        for name, (res, args) in proto.items():
            f = getattr(so, name)
            f.restype, f.argtypes = res, args
        cols = (ctypes.c_char_p * 64).in_dll(so, "trapeze_ghostzone_csv_columns")
        n = ctypes.c_int.in_dll(so, "trapeze_ghostzone_csv_ncolumns").value
        self.gz_csv_columns = [cols[i].decode() for i in range(n)]

    def buffer(self, struct_name):
        """Zeroed memory for a C struct Python only passes by pointer."""
        return ctypes.create_string_buffer(self.size[struct_name])

    def check(self, status, err, prefix=""):
        """Raises the exception of a failed call; err is the call's trapeze_error
        (an Error or a buffer of its size)."""
        if status != 0:
            e = Error.from_buffer(err)
            raise error_for(e.code, prefix + e.message.decode(errors="replace"))


_lib = None


def lib():
    global _lib
    if _lib is None:
        _lib = Lib()
    return _lib
