"""The Python package against what it wraps: the dissertation's numbers the C
tests also check, the command line's own CSV output byte for byte, the
analytic gradient against finite differences, and the calibration/GPU pairing.
Run by `make test` (scripts/run-tests.sh) with TRAPEZE_LIB and TRAPEZE_PROGRAM
pointing at the build under test."""
import io
import math
import os
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

import trapeze

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def cli(*args):
    return subprocess.run([trapeze._lib.program()] + list(args), check=True,
                          capture_output=True, text=True, cwd=ROOT)


def test_paper_mode_pathfinder_matches_dissertation():
    df = trapeze.ghostzone("pathfinder")
    r = df.set_index("sync")
    assert r.loc["relaunch", "h"] == 12 and abs(r.loc["relaunch", "h_continuous"] - 12.25) < 0.01
    assert r.loc["fence", "h"] == 19 and r.loc["fence", "h_argmin"] == 20
    assert (df["chosen"] == "relaunch").all()
    assert (df["gpu"] == "gtx280").all()


def test_rows_equal_the_command_lines_csv(tmp_path):
    out = tmp_path / "gz.csv"
    cli("ghostzone", "--gpu", "gtx480", "--csv", str(out), "hotspot")
    want = pd.read_csv(out)
    got = trapeze.ghostzone_rows("hotspot", gpu="gtx480")
    assert list(got.columns) == list(want.columns)
    pd.testing.assert_frame_equal(got, want)


def test_unseen_stencil_is_profiled_as_the_command_line_does(tmp_path):
    spec = tmp_path / "m1d.ini"
    src = (trapeze.data_dir() + "/workloads/multi1d.ini")
    spec.write_text(open(src).read().replace("size = 500000", "size = 26040"))
    out = tmp_path / "gz.csv"
    cli("ghostzone", "--gpu", "gtx480", "--csv", str(out), str(spec))
    want = pd.read_csv(out)
    pd.testing.assert_frame_equal(trapeze.ghostzone_rows(str(spec), gpu="gtx480"), want)
    # the profiled CPL is validate's model column for this grid, not the spec's counts'
    pts = pd.read_csv(trapeze.data_dir() + "/validation/gtx480-sizes-unseen-points.csv")
    v = pts[(pts.workload == "Multi1D") & (pts.area_factor == 1) & (pts.sync == "relaunch") &
            (pts.h == 5)].cpl_model.iloc[0]
    assert abs(trapeze.evaluate(str(spec), 5, gpu="gtx480")["cpl_cycles"] - v) < 1e-6 * v
    spec_only = trapeze.evaluate(str(spec), 5, gpu="gtx480", spec_counts=True)["cpl_cycles"]
    assert abs(spec_only - v) > 0.1 * v


def test_evaluate_gradient_matches_finite_differences():
    h, step = 2.3, 1e-5
    e = trapeze.evaluate("hotspot", h, "fence", gpu="gtx480", continuous=True)
    lo = trapeze.evaluate("hotspot", h - step, "fence", gpu="gtx480", continuous=True)
    hi = trapeze.evaluate("hotspot", h + step, "fence", gpu="gtx480", continuous=True)
    fd = (hi["cpl_cycles"] - lo["cpl_cycles"]) / (2 * step)
    assert math.isclose(e["dcpl_dh"], fd, rel_tol=1e-5)
    # the gradient as NumPy arrays: the same numbers, in param_names() order
    assert isinstance(e["grad_params"], np.ndarray) and isinstance(e["grad_h_blk"], np.ndarray)
    assert list(e["grad_h_blk"]) == [e["dcpl_dh"], e["dcpl_dblk"]]
    assert list(e["grad_params"]) == [e["dcpl_d" + p] for p in trapeze.param_names()]
    # in paper mode (no overlap extension) CPL is the sum of its six components (5.24)
    paper = trapeze.evaluate("hotspot", 2, "fence")
    parts = sum(paper[k + "_cycles"] for k in
                ("glbsync", "loadsten", "commit", "itermem", "misccomp", "itercomp"))
    assert math.isclose(parts, paper["cpl_cycles"], rel_tol=1e-12)
    assert set("dcpl_d" + p for p in trapeze.param_names()) <= set(e)


def test_ghostzone_has_the_command_lines_columns_and_numbers():
    """cpl_cycles and speedup are the table's (CPL at h_argmin, CPL(1)/CPL(h_argmin)):
    HotSpot on the GTX 480 prints 731104.1 and 1.12x where Python once gave the
    CPL at floor(h*), 815735.5, and 1.00."""
    for workload, gpu in (("hotspot", "gtx480"), ("pathfinder", None), ("cell", "v100")):
        args = ["ghostzone"] + (["--gpu", gpu] if gpu else []) + [workload]
        table = [l.split() for l in cli(*args).stdout.splitlines()
                 if len(l.split()) == 10 and l.split()[2] in ("relaunch", "fence")]
        header = cli(*args).stdout.splitlines()[0].split()
        df = trapeze.ghostzone(workload, gpu=gpu)
        assert list(df.columns[:10]) == ["workload", "gpu", "sync", "h_continuous"] + header[4:]
        assert len(table) == 2
        for row, (_, r) in zip(table, df.iterrows()):
            assert r["sync"] == row[2] and r["h"] == int(row[4]) and r["h_argmin"] == int(row[5])
            assert abs(r["cpl_cycles"] - float(row[6])) <= 0.05
            assert f"{r['speedup']:.2f}x" == row[7] and r["chosen"] == row[9]
            assert abs(r["delta"] - float(row[8])) <= 0.005
    hs = trapeze.ghostzone("hotspot", gpu="gtx480").set_index("sync")
    assert abs(hs.loc["relaunch", "cpl_cycles"] - 731104.1) < 0.05
    assert abs(hs.loc["relaunch", "cpl_floor_cycles"] - 815735.5) < 0.05


def test_arguments_are_checked_with_the_right_exception(tmp_path):
    """Each cause has its built-in exception under TrapezeError, and names from a
    set say the nearest one."""
    with pytest.raises(trapeze.TrapezeValueError, match="did you mean 'fence'"):
        trapeze.evaluate("hotspot", 2, "fences", gpu="gtx480")
    with pytest.raises(ValueError, match="h 2.5: expected an integer"):
        trapeze.evaluate("hotspot", 2.5, "fence", gpu="gtx480")
    for h in (0, -1, True, "2"):
        with pytest.raises(trapeze.TrapezeValueError):
            trapeze.evaluate("hotspot", h, "fence")
    with pytest.raises(ValueError, match="above HotSpot's largest valid height, 9"):
        trapeze.evaluate("hotspot", 10, "fence", gpu="gtx480")
    assert trapeze.evaluate("hotspot", 9.0, "fence", gpu="gtx480")["h"] == 9
    with pytest.raises(ValueError, match="workload hotspt: no such preset; did you mean 'hotspot'"):
        trapeze.ghostzone("hotspt")
    with pytest.raises(ValueError, match="GPU gtx48: no such preset; did you mean 'gtx480'"):
        trapeze.ghostzone("hotspot", gpu="gtx48")
    with pytest.raises(ValueError, match="sync 'bset'.*did you mean 'best'"):
        trapeze.ghostzone("hotspot", sync="bset")
    with pytest.raises(trapeze.TrapezeFileNotFoundError):
        trapeze.ghostzone(str(tmp_path / "none.ini"))
    with pytest.raises(FileNotFoundError, match="none.ini: no such file"):
        trapeze.ghostzone("hotspot", gpu="gtx480", calibration=str(tmp_path / "none.ini"))
    with pytest.raises(ValueError, match="'budgt'.*did you mean 'budget'"):
        trapeze.calibrate("gtx480", str(tmp_path / "s.csv"), str(tmp_path / "c.ini"), budgt=3)
    with pytest.raises(ValueError, match="h 1.5"):
        trapeze.sim("gtx480", workload="hotspot", h=1.5)
    with pytest.raises(ValueError, match="did you mean 'relaunch'"):
        trapeze.sim("gtx480", workload="hotspot", sync="relanch")
    with pytest.raises(ValueError, match="kernel 'vecad'.*did you mean 'vecadd'"):
        trapeze.sim("gtx480", kernel="vecad")
    with pytest.raises(ValueError, match="vecadd parameter 'nn'.*did you mean 'n'"):
        trapeze.sim("gtx480", kernel="vecadd", params={"nn": 64})
    # the library's own errors keep their message, typed by cause
    err = trapeze.TrapezeError
    assert issubclass(trapeze.TrapezeRuntimeError, RuntimeError) and \
        issubclass(trapeze.TrapezeRuntimeError, err)
    assert not issubclass(err, RuntimeError) and issubclass(trapeze.TrapezeValueError, err)


def test_gpu_uses_its_own_calibration_and_refuses_another():
    v100 = trapeze.ghostzone("pathfinder", gpu="v100")
    explicit = trapeze.ghostzone("pathfinder", gpu="v100", calibration="v100")
    pd.testing.assert_frame_equal(v100, explicit)
    # the command line's relaunch row on the same GPU and calibration: the same h
    out = cli("ghostzone", "--gpu", "v100", "--sync", "relaunch", "pathfinder").stdout
    row = [l.split() for l in out.splitlines() if l.startswith("PathFinder") and "relaunch" in l][0]
    assert v100.set_index("sync").loc["relaunch", "h"] == int(row[4])
    assert abs(v100.set_index("sync").loc["relaunch", "h_continuous"] - float(row[3])) < 1e-3
    with pytest.raises(trapeze.TrapezeValueError, match="made for GPU gtx480"):
        trapeze.ghostzone("pathfinder", gpu="v100", calibration="gtx480")
    forced = trapeze.ghostzone("pathfinder", gpu="v100", calibration="gtx480",
                               force_calibration=True)
    assert not forced.equals(v100)


def test_bad_input_raises_with_the_librarys_message(tmp_path):
    bad = tmp_path / "bad.ini"
    text = open(os.path.join(ROOT, "data/workloads/hotspot.ini")).read()
    bad.write_text(text.replace("iterations = ", "iterations = lots ; ", 1))
    with pytest.raises(trapeze.TrapezeValueError, match="bad.ini:[0-9]+: \\[workload\\] iterations"):
        trapeze.ghostzone(str(bad), gpu="gtx480")
    with pytest.raises(trapeze.TrapezeError, match="no such preset"):
        trapeze.ghostzone("hotspt")


def test_sim_returns_the_command_lines_csv(tmp_path):
    """In-process runs give the program's rows: a built-in, its per-SM rows, a
    ghost-zone workload (h, sync, size) and an Accel-Sim trace."""
    out, per_sm = tmp_path / "sim.csv", tmp_path / "sm.csv"
    cli("sim", "--gpu", "data/gpus/gtx480.config", "--quiet", "--csv", str(out),
        "--per-sm-csv", str(per_sm), "vecadd", "n=4096")
    got = trapeze.sim("gtx480", kernel="vecadd", params={"n": 4096})
    pd.testing.assert_frame_equal(got, pd.read_csv(out))
    assert got.loc[0, "cycles"] > 0 and got.loc[0, "warp_instructions"] > 0
    pd.testing.assert_frame_equal(trapeze.sim("gtx480", kernel="vecadd", params={"n": 4096},
                                              per_sm=True), pd.read_csv(per_sm))
    cli("sim", "--gpu", "gtx480", "--quiet", "--csv", str(out), "--workload", "hotspot",
        "--size", "96x96", "--h", "2", "--sync", "fence", "--iterations", "4")
    got = trapeze.sim("gtx480", workload="hotspot", size="96x96", h=2, sync="fence",
                      iterations=4)
    pd.testing.assert_frame_equal(got, pd.read_csv(out))
    assert "h=2 sync=fence size=96x96" in got.loc[0, "run"]
    trace = tmp_path / "tr"
    cli("trace", "export", "--gpu", "gtx480", "jacobi", "nx=64", "ny=64", "--out", str(trace))
    cli("sim", "--gpu", "gtx480", "--quiet", "--csv", str(out), "--trace",
        str(trace / "kernelslist.g"))
    got = trapeze.sim("gtx480", trace=str(trace / "kernelslist.g"))
    pd.testing.assert_frame_equal(got, pd.read_csv(out))
    with pytest.raises(trapeze.TrapezeValueError, match="kernel .nosuchkernel.: expected one of vecadd"):
        trapeze.sim("gtx480", kernel="nosuchkernel")
    with pytest.raises(trapeze.TrapezeError, match="size 96: expected 2"):
        trapeze.sim("gtx480", workload="hotspot", size="96")


def test_calibrate_reproduces_the_shipped_calibration(tmp_path):
    samples = tmp_path / "s.csv"
    samples.write_bytes(open(os.path.join(ROOT, "data/calibrations/gtx480-samples.csv"), "rb").read())
    out = tmp_path / "c.ini"
    log = trapeze.calibrate("gtx480", str(samples), str(out))
    assert list(log.columns)[:2] == ["sample_id", "kind"]
    # the shipped file also records the simulator it was made on (its
    # fingerprint, scripts/regenerate-data.sh): provenance, not calibration
    shipped = open(os.path.join(ROOT, "data/calibrations/gtx480.ini"), "rb").read()
    shipped = b"".join(l for l in shipped.splitlines(True) if not l.startswith(b"simulator = "))
    assert out.read_bytes() == shipped


def test_validate_in_process_equals_the_command_line(tmp_path):
    """The library's validation CSV, asked for from Python, is the program's file
    byte for byte (both sweep the same small plan: one workload, h up to 2)."""
    cal = tmp_path / "c.ini"
    samples = tmp_path / "s.csv"
    plan = {"budget": 8, "stages": 1, "max_h": 2, "sweep_budget": 3e7}
    trapeze.calibrate("gtx480", str(samples), str(cal), workloads=["pathfinder"], **plan)
    want = tmp_path / "v.csv"
    cli("validate", "--gpu", "gtx480", "--calibration", str(cal), "--samples", str(samples),
        "--budget", "8", "--stages", "1", "--max-h", "2", "--sweep-budget", "3e7",
        "--csv", str(want), "pathfinder")
    got = trapeze.validate("gtx480", str(cal), samples_path=str(samples),
                           workloads=["pathfinder"], **plan)
    pd.testing.assert_frame_equal(got, pd.read_csv(want))
    assert set(got["sync"]) == {"relaunch", "fence"}
    assert (got["pick_ratio"] <= 1).all() and (got["pick_ratio"] > 0).all()
    with pytest.raises(trapeze.TrapezeError, match="made for GPU gtx480"):
        trapeze.validate("v100", str(cal), workloads=["pathfinder"])


def test_validate_logged_only_reads_the_shipped_size_sweep(tmp_path):
    """logged_only=1 (validate --sizes --logged-only) reads a finished size sweep back
    without simulating: the shipped GTX 480 table, and the log copy left as it was."""
    d = trapeze.data_dir() + "/validation/gtx480-sizes-main"
    log = tmp_path / "sweep.csv"
    shutil.copy(d + "-sweep.csv", log)
    got = trapeze.validate("gtx480", "gtx480", workloads=["hotspot", "poisson"],
                           sweep_log=str(log), sizes=[1, 16, 100], sweep_stages=1,
                           logged_only=1)
    pd.testing.assert_frame_equal(got, pd.read_csv(d + ".csv"))
    assert open(log).read() == open(d + "-sweep.csv").read()
    with pytest.raises(trapeze.TrapezeError, match="logged_only reads a size sweep back"):
        trapeze.validate("gtx480", "gtx480", workloads=["hotspot"], sweep_log=str(log),
                         logged_only=1)


def test_sleep_calibrate_equals_the_command_line(tmp_path):
    """The sleep model's windows in-process: the same samples log and result, byte for
    byte, as `trapeze calibrate --model sleep`; a built-in kernel and a stencil."""
    jobs = ["matmul n=32", "hotspot size=64x64 iters=2"]
    d = trapeze.sleep_calibrate("gtx480", jobs, str(tmp_path / "l.csv"), str(tmp_path / "o.csv"),
                                window=3000)
    cli("calibrate", "--model", "sleep", "--gpu", "gtx480", "--window", "3000", *jobs,
        "--samples", str(tmp_path / "cl.csv"), "--out", str(tmp_path / "co.csv"))
    assert (tmp_path / "o.csv").read_bytes() == (tmp_path / "co.csv").read_bytes()
    assert (tmp_path / "l.csv").read_bytes() == (tmp_path / "cl.csv").read_bytes()
    assert list(d.structure) == ["l1d", "l2", "rf"] * 2
    # the default (a jump sample where it costs under half the run; on runs this short
    # the spread sample) runs to the end: not cut, longer than the first window
    assert (d.cut == 0).all() and (d.sampled_cycles > 3000).all()
    # the first window only: cut there, as the command's --spread 0
    d0 = trapeze.sleep_calibrate("gtx480", jobs, str(tmp_path / "l0.csv"),
                                 str(tmp_path / "o0.csv"), window=3000, spread=0)
    cli("calibrate", "--model", "sleep", "--gpu", "gtx480", "--window", "3000", "--spread", "0",
        *jobs, "--samples", str(tmp_path / "cl0.csv"), "--out", str(tmp_path / "co0.csv"))
    assert (tmp_path / "l0.csv").read_bytes() == (tmp_path / "cl0.csv").read_bytes()
    assert (d0.cut == 1).all() and (d0.sampled_cycles >= 3000).all()
    assert (d0.sampled_cycles < d.sampled_cycles).all()
    with pytest.raises(trapeze.TrapezeError, match="no built-in kernel 'nosuch'|no such preset"):
        trapeze.sleep_calibrate("gtx480", ["nosuch n=3"], str(tmp_path / "x.csv"),
                                str(tmp_path / "y.csv"))


def _c_struct_fields(name):
    """The member names of `typedef struct {...} name;` in include/trapeze/, in order."""
    import glob
    import re
    for header in sorted(glob.glob(os.path.join(ROOT, "include", "trapeze", "*.h"))):
        with open(header) as f:
            src = re.sub(r"/\*.*?\*/|//[^\n]*", "", f.read(), flags=re.S)
        m = re.search(r"typedef struct\s*\w*\s*\{([^{}]*)\}\s*" + name + r"\s*;", src)
        if not m:
            continue
        names = []
        for decl in filter(None, (d.strip() for d in m.group(1).split(";"))):
            first, *more = decl.split(",")
            names.append(re.sub(r"\[.*", "", first).split()[-1].lstrip("*"))
            names += [re.sub(r"\[.*", "", d).strip().lstrip("*") for d in more]
        return names
    raise AssertionError(f"no typedef struct {name} in include/trapeze/")


def test_struct_mirrors_name_the_c_members_in_order():
    # the load-time size check misses a member added where padding was (an
    # int after a double): the mirror's later fields then land one member off
    from trapeze import _lib
    for cname, mirror in (("trapeze_error", _lib.Error), ("trapeze_workload", _lib.Workload),
                          ("trapeze_ghostzone_optimum", _lib.GzOptimum),
                          ("trapeze_ghostzone_calib_options", _lib.CalibOptions)):
        assert [f[0] for f in mirror._fields_] == _c_struct_fields(cname), cname
