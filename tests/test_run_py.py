"""run.py, the bootstrap: a .venv it cannot use is never half-removed with a
traceback; the message says what to do instead."""

import os
import shutil
import subprocess
import sys

import pytest

from tests import needs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = ("run.py", "requirements.txt", "package.json", "package-lock.json")


@pytest.fixture
def shared_tmp():
    """A folder every user can read (pytest's own is its owner's alone)."""
    import pathlib
    import tempfile
    path = tempfile.mkdtemp(prefix="jarmo-run-py-")
    os.chmod(path, 0o755)
    yield pathlib.Path(path)
    shutil.rmtree(path, ignore_errors=True)


def _project(tmp_path, python_target):
    """A copy of the bootstrap's files with a .venv whose python is a link to
    python_target, readable by everyone; its path."""
    proj = tmp_path / "jarmo"
    (proj / ".venv" / "bin").mkdir(parents=True)
    for name in FILES:
        shutil.copy(os.path.join(ROOT, name), proj / name)
    os.symlink(python_target, proj / ".venv" / "bin" / "python")
    for folder in (proj, proj / ".venv", proj / ".venv" / "bin"):
        os.chmod(folder, 0o755)
    return proj


def _run_as_nobody(proj, *args):
    python3 = shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin")
    return subprocess.run(["runuser", "-u", "nobody", "--", python3, "run.py"] + list(args),
                          cwd=proj, capture_output=True, text=True, timeout=120,
                          env={"PATH": os.environ.get("PATH", ""), "HOME": "/nonexistent"})


@pytest.mark.cpython_only
@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("runuser"),
                    reason="needs root and runuser to act as another user")
def test_another_users_broken_venv_says_what_to_do(shared_tmp):
    """Bug: run as another user whose python3 is another interpreter, run.py
    said ".venv is broken; recreating it" and crashed with a PermissionError
    traceback half-way through removing the other user's .venv."""
    proj = _project(shared_tmp, "/nonexistent/someone/.pyenv/versions/3.11.9/bin/python3")
    proc = _run_as_nobody(proj, "lint")
    said = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "Traceback" not in said and "PermissionError" not in said, said
    assert ".venv" in said and "another user" in said, said
    assert "rm -rf" in said and "clone" in said, said          # what to do instead
    assert os.path.islink(proj / ".venv" / "bin" / "python")    # nothing was removed


@pytest.mark.cpython_only
def test_a_venv_that_cannot_be_removed_is_one_clear_error(tmp_path, monkeypatch):
    """The same, for any .venv the user cannot replace: the error names it."""
    import importlib.util
    proj = _project(tmp_path, "/nonexistent/python3")
    spec = importlib.util.spec_from_file_location("jarmo_run", str(proj / "run.py"))
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)

    def refuse(path, *a, **k):
        raise PermissionError(13, "Permission denied", path)
    monkeypatch.setattr(run.shutil, "rmtree", refuse)
    monkeypatch.setattr(run.os, "access", lambda path, mode: True)
    with pytest.raises(SystemExit) as exc:
        run.ensure_venv()
    assert exc.value.code == 1
    assert os.path.islink(proj / ".venv" / "bin" / "python")


# ---------------------------------------------------------------- one line for every error

COMMANDS = ("play", "selfplay", "web", "bench", "deploy", "bundle", "firmware", "book", "tune",
            "fetch", "lint", "test")
RUN_TIMEOUT = 120


def _load_run():
    import importlib.util
    spec = importlib.util.spec_from_file_location("jarmo_run_here", os.path.join(ROOT, "run.py"))
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    return run


@pytest.fixture(scope="module")
def ready():
    """run.py's .venv and npm packages as run.py wants them: a command starts
    at once (no install first, which would take minutes and the network)."""
    run = _load_run()
    py = run.venv_python()
    version = run.venv_version(py)
    if version is None or run.read_stamp(run.PY_STAMP) != run.digest(run.REQUIREMENTS) + " " + version:
        needs.missing("run.py would install its packages first")
    if run.read_stamp(run.NODE_STAMP) != run.digest(run.PACKAGE_JSON, run.PACKAGE_LOCK):
        needs.missing("run.py would install the npm packages first")
    return run


def _run_py(*args, closed_stdout=True, env=None):
    """python3 run.py ARGS, its stdout a pipe nobody reads (closed at once)
    when closed_stdout; (status, stdout, stderr)."""
    if closed_stdout:
        read, write = os.pipe()
        os.close(read)
        try:
            proc = subprocess.run([sys.executable, "run.py"] + list(args), cwd=ROOT, stdout=write,
                                  stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                                  timeout=RUN_TIMEOUT, env=env)
        finally:
            os.close(write)
        return proc.returncode, "", proc.stderr
    proc = subprocess.run([sys.executable, "run.py"] + list(args), cwd=ROOT, capture_output=True,
                          stdin=subprocess.DEVNULL, text=True, timeout=RUN_TIMEOUT, env=env)
    return proc.returncode, proc.stdout, proc.stderr


def _in_parallel(calls):
    """The results of calls (functions), run two at a time (each is a process)."""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(lambda call: call(), calls))


def _one_line(status, err, command):
    assert status != 0, (command, err)
    assert "Traceback" not in err and "usage:" not in err.lower(), (command, err)
    lines = err.splitlines()
    assert len(lines) == 1, (command, err)
    return lines[0]


@pytest.mark.cpython_only
def test_every_command_says_a_bad_option_in_one_line(ready):
    """Bug: an unknown option printed an 8-line usage block (argparse's)
    before the error, pytest and ruff theirs; now every command says it in
    one line, names the option and points to --help, its stdout a closed
    pipe."""
    results = _in_parallel([lambda c=c: (c, _run_py(c, "--no-such-option")) for c in COMMANDS])
    for command, (status, _out, err) in results:
        line = _one_line(status, err, command)
        assert line.startswith("python3 run.py %s: " % command), line
        if command != "tune":             # tune stops first at its missing WHAT, named too
            assert "--no-such-option" in line, line
        assert "python3 run.py %s --help" % command in line, line


@pytest.mark.cpython_only
def test_every_command_help_into_a_closed_pipe_is_quiet(ready):
    """Bug: `python3 run.py firmware --help | true` ended in a BrokenPipeError
    traceback; a stdout whose reader has gone ends a command quietly, with
    SIGPIPE's status."""
    results = _in_parallel([lambda c=c: (c, _run_py(c, "--help")) for c in COMMANDS])
    for command, (status, _out, err) in results:
        assert err == "" and status == 141, (command, status, err)


@pytest.mark.cpython_only
def test_output_into_a_closed_pipe_is_quiet(ready, tmp_path):
    """Bug: `play --script F | head` and `fetch --list | head` ended in a
    BrokenPipeError traceback."""
    script = tmp_path / "events.txt"
    script.write_text("next\nselect\nselect\nquit\n")
    for args in (("play", "--script", str(script), "--data", str(tmp_path / "d")),
                 ("fetch", "--list")):
        status, _out, err = _run_py(*args)
        assert err == "" and status == 141, (args, status, err)


@pytest.mark.cpython_only
@pytest.mark.parametrize("args, words", [
    (("play", "--side", "east"), ("--side", "south, north", "'east'")),
    (("play", "--seed", "abc"), ("--seed", "a whole number", "'abc'")),
    (("play", "--profile", "nosuch"), ("--profile", "feather_oled", "tabletop", "'nosuch'")),
    (("play", "--color"), ("--color", "needs a value", "truecolor")),
    (("play", "--sdie", "north"), ("--sdie", "did you mean --side?")),
    (("tune", "bogus"), ("what", "positions, fit, match", "'bogus'")),
    (("deploy", "--firmware", "x"), ("--firmware", "auto, frozen, stock")),
    (("web", "--port", "70000"), ("--port", "0 to 65535", "'70000'")),
    (("test", "--no-such-option"), ("--no-such-option",)),
    (("lint", "--no-such-option"), ("--no-such-option",)),
])
def test_an_option_error_names_the_option_and_what_it_takes(ready, args, words):
    status, _out, err = _run_py(*args)
    line = _one_line(status, err, args)
    for word in words:
        assert word in line, (word, line)
    assert line.endswith("(python3 run.py %s --help)" % args[0]), line


@pytest.mark.cpython_only
def test_an_unknown_command_is_one_line_with_the_commands():
    """Bug: an unknown command printed run.py's whole usage before the error."""
    status, out, err = _run_py("nosuch", closed_stdout=False)
    line = _one_line(status, err, "nosuch")
    assert status == 2 and out == ""
    assert "'nosuch'" in line and "play" in line and "fetch" in line and "--help" in line, line


@pytest.mark.cpython_only
def test_an_unexpected_error_is_one_line_and_jarmo_traceback_shows_it(tmp_path):
    """A program's unexpected exception, run under run.py's guard: one line
    naming it and how to see more; JARMO_TRACEBACK=1 shows the traceback."""
    crash = tmp_path / "crash.py"
    crash.write_text("def deep():\n    raise KeyError('boom')\n\n\ndeep()\n")
    argv = [sys.executable, "-P", "run.py", "--guarded", "demo", str(crash)]
    env = dict(os.environ)
    env.pop("JARMO_TRACEBACK", None)
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=RUN_TIMEOUT, env=env)
    line = _one_line(proc.returncode, proc.stderr, "demo")
    assert line == ("python3 run.py demo: unexpected error: KeyError: 'boom' "
                    "(JARMO_TRACEBACK=1 shows its traceback)"), line
    env["JARMO_TRACEBACK"] = "1"
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=RUN_TIMEOUT, env=env)
    assert proc.returncode == 1 and "Traceback" in proc.stderr and "deep()" in proc.stderr


@pytest.mark.cpython_only
def test_a_guarded_script_runs_as_python_would_run_it(tmp_path):
    """Under the guard a tool is still __main__, its folder first on sys.path
    (tools/ import their siblings), its argv its own."""
    (tmp_path / "sibling.py").write_text("WORD = 'found'\n")
    (tmp_path / "tool.py").write_text(
        "import sys\nimport sibling\nprint(__name__, sibling.WORD, sys.argv[1:])\nsys.exit(3)\n")
    proc = subprocess.run([sys.executable, "-P", "run.py", "--guarded", "demo",
                           str(tmp_path / "tool.py"), "a", "--b"], cwd=ROOT, capture_output=True,
                          text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 3 and proc.stderr == "", proc.stderr
    assert proc.stdout == "__main__ found ['a', '--b']\n"
