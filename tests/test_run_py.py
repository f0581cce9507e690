"""run.py, the bootstrap: a .venv it cannot use is never half-removed with a
traceback; the message says what to do instead."""

import os
import shutil
import subprocess

import pytest

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
