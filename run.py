#!/usr/bin/env python3
"""Bootstrap and task runner for Jarmo. Standard library only.

    python3 run.py test [--full] [args]  tests on CPython, MicroPython 1.27 and the emulated board
    python3 run.py lint [args]           ruff check . (configuration in pyproject.toml)
    python3 run.py play [args]           the terminal simulator (python -m host.sim)
    python3 run.py bench [args]          tools/bench.py
    python3 run.py selfplay [args]       AI self-play statistics (python -m host.selfplay)
    python3 run.py deploy DRIVE [args]   tools/deploy.py: the game onto a CIRCUITPY drive
    python3 run.py bundle [args]         tools/bundle.py: Project Bundle zips for download
    python3 run.py web [--build DIR]     tools/web.py: the handheld on a web page (served, or a static site)
    python3 run.py firmware [args]       tools/firmware.py: a UF2 with the game frozen in
    python3 run.py fetch [args]          tools/artifacts.py: the outside files, into the cache
    python3 run.py book [args]           tools/book.py: the AI's opening book (jarmo/book.bin)
    python3 run.py tune [args]           tools/tune.py: fit the evaluation's weights to self-play

On first use it creates .venv and installs requirements.txt into it, and
installs the MicroPython WebAssembly package with npm (for `test` and
`bench`). It reinstalls only when requirements.txt or package-lock.json
changes: a hash of each is stamped inside .venv and node_modules.

Commands run as `.venv/bin/python -P ...` with the repository root at the end
of sys.path (a .pth file in .venv): the device's code.py in the root would
otherwise shadow the standard library's `code` module (which pdb imports).
They run under run.py's guard (`.venv/bin/python -P run.py --guarded
COMMAND ...`): every error is one line on stderr and a non-zero status (an
option error names the option, what it takes and --help); a stdout closed
by its reader (`| head`) ends the command quietly with status 141; with
JARMO_TRACEBACK=1 an unexpected error shows its traceback.
"""

import hashlib
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(ROOT, ".venv")
NODE_MODULES = os.path.join(ROOT, "node_modules")
REQUIREMENTS = os.path.join(ROOT, "requirements.txt")
PACKAGE_JSON = os.path.join(ROOT, "package.json")
PACKAGE_LOCK = os.path.join(ROOT, "package-lock.json")
MP_PACKAGE = os.path.join(NODE_MODULES, "@micropython", "micropython-webassembly-pyscript")
PY_STAMP = os.path.join(VENV, ".jarmo-requirements.sha256")
KIT_REQUIREMENTS = os.path.join(ROOT, "kit", "requirements.txt")
KIT_STAMP = os.path.join(VENV, ".jarmo-kit-requirements.sha256")
NODE_STAMP = os.path.join(NODE_MODULES, ".jarmo-lock.sha256")

USAGE = """usage: python3 run.py COMMAND [args]   (python3 run.py COMMAND --help: its usage)

commands:
  test [--full] [pytest args]
                       run the tests (CPython, MicroPython, the emulated board);
                       --full adds the volume runs (what CI runs)
  lint                 ruff check . (rules in pyproject.toml)
  play [args]          run the terminal simulator (python -m host.sim)
  bench [args]         run tools/bench.py
  selfplay [args]      AI self-play statistics (python -m host.selfplay)
  deploy DRIVE [args]  copy the game and its libraries to a CIRCUITPY drive
  bundle [args]        Project Bundle zips, one per board profile and CircuitPython version
  web [--build DIR]    the handheld in a browser: served on localhost, or written as a static site
  firmware --profile P build a CircuitPython UF2 with the game frozen in
  fetch [NAME ...]     fetch the pinned outside files (firmware/artifacts.json) into the cache
  kit [--profile NAME] the maker's kit into build/kit/: parts list, wiring, overlay, case, guide
  book [args]          compute the AI's opening book by a deep search (every core; resumes)
  tune WHAT [args]     fit the evaluation's weights to self-play outcomes (positions, fit, match)
"""


def say(text):
    print("run.py: " + text, flush=True)


def fail(text, code=1):
    print("run.py: error: " + text, file=sys.stderr, flush=True)
    sys.exit(code)


# ---------------------------------------------------------------- one line for every error
#
# Every command says an error in ONE line on stderr with a non-zero status:
# a newcomer reads a line, not a usage block or a traceback. run.py's own
# errors go through fail() and run_main(). A command's program runs under
# guard() (`.venv/bin/python -P run.py --guarded COMMAND ...`), in the same
# process as the program, so that this holds for every tool without each
# tool repeating it: argparse's option errors (every tool parses with it),
# pytest's and ruff's usage errors, Ctrl-C, a stdout closed by its reader
# (`| head`) and an unexpected exception (JARMO_TRACEBACK=1: its traceback).

GUARD = "--guarded"
EXIT_PIPE = 128 + 13          # stdout closed by its reader: as a tool killed by SIGPIPE
EXIT_INTERRUPT = 128 + 2      # Ctrl-C: as a tool killed by SIGINT
_running = {"command": None}  # the command main() runs: execute() guards its program


def prog_of(command):
    """How a user starts the command: the name its messages begin with."""
    return "python3 run.py " + command


def clip(text, limit=200):
    """text on one line, at most limit characters: what a user typed (a
    value, a file's line) may be any length, the line that quotes it not."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def say_error(prog, text):
    """One line on stderr (none when stderr is closed too)."""
    try:
        sys.stderr.write("%s: %s\n" % (prog, text))
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


_TYPE_WORDS = {"int": "a whole number", "float": "a number"}


def _action_named(parser, name):
    """The argparse action an error message names ("--color/--colour", "what")."""
    for action in getattr(parser, "_actions", ()):
        names = ["/".join(action.option_strings), action.dest]
        if isinstance(action.metavar, str):
            names.append(action.metavar)
        if name in names:
            return action
    return None


def _accepted(action):
    """What an argparse action takes, in words ("one of a, b", "a whole number"), or ""."""
    if action is None:
        return ""
    if action.choices is not None:
        return "one of " + ", ".join(str(c) for c in action.choices)
    if action.nargs == 0:
        return "no value"
    words = _TYPE_WORDS.get(getattr(action.type, "__name__", ""))
    if words:
        return words
    return action.metavar if isinstance(action.metavar, str) else ""


def usage_error_text(parser, message):
    """argparse's error message as one line that names the option and what it
    takes (the messages of Python 3.11 to 3.14)."""
    import difflib
    import re
    m = re.match(r"argument (.+?): (.*)$", message, re.S)
    if m:
        name, why = m.group(1), m.group(2)
        action = _action_named(parser, name)
        shown = next((n for n in name.split("/") if n.startswith("--")), name.split("/")[0])
        accepted = _accepted(action)
        bad = re.match(r"invalid choice: (.*?)(?: \(choose from .*\))?$", why, re.S) or \
            re.match(r"invalid \S+ value: (.*)$", why, re.S)
        if bad:
            return "%s takes %s, not %s" % (shown, accepted or "another value", clip(bad.group(1), 60))
        if why.startswith("expected "):
            return "%s needs a value%s" % (shown, ": " + accepted if accepted else "")
        if why.startswith("ignored explicit argument"):
            return "%s takes no value" % shown
        return "%s: %s" % (shown, clip(why))
    m = re.match(r"unrecognized arguments: (.*)$", message, re.S)
    if m:
        words = m.group(1).split()
        if not words[0].startswith("-"):
            return "unexpected argument %s" % clip(" ".join(words), 60)
        options = [o for a in getattr(parser, "_actions", ()) for o in a.option_strings
                   if o.startswith("--")]
        close = difflib.get_close_matches(words[0].split("=")[0], options, 1, 0.75)  # a typo
        return "unknown option %s; %s" % (clip(" ".join(words), 60), (
            "did you mean %s?" % close[0] if close else "the options: " + ", ".join(options)))
    m = re.match(r"the following arguments are required: (.*)$", message, re.S)
    if m:
        parts = []
        for name in m.group(1).split(", "):
            accepted = _accepted(_action_named(parser, name))
            parts.append("%s (%s)" % (name, accepted) if accepted and accepted != name else name)
        return "missing " + ", ".join(parts)
    return clip(message)


def _one_line_option_errors(prog):
    """argparse's errors, every parser's in this process: one line and status
    2, with a pointer to --help instead of the usage block."""
    import argparse

    def error(parser, message):
        say_error(prog, "%s (%s --help)" % (usage_error_text(parser, message), prog))
        sys.exit(2)
    argparse.ArgumentParser.error = error


def _pytest(args, prog):
    """pytest.main(args) with its usage errors (an unknown option, a missing
    file) in one line; pytest's status."""
    import pytest

    def one_line(err):
        lines = [line.strip() for line in str(err).splitlines() if line.strip()]
        said = next((line.split(": error: ", 1)[1] for line in lines if ": error: " in line),
                    lines[0] if lines else "usage error")
        say_error(prog, "%s (%s --help)" % (clip(said), prog))
        raise SystemExit(int(pytest.ExitCode.USAGE_ERROR))

    class OneLine:
        @pytest.hookimpl(wrapper=True)
        def pytest_cmdline_parse(self):
            try:
                return (yield)
            except pytest.UsageError as err:
                one_line(err)

        @pytest.hookimpl(wrapper=True)
        def pytest_cmdline_main(self):
            try:
                return (yield)
            except pytest.UsageError as err:
                one_line(err)

    return pytest.main(args, plugins=[OneLine()])


def _ruff(args, prog):
    """ruff with its errors in one line (its usage block, its causes); ruff's status.
    Its findings go to stdout as they are; stderr is read whole (ruff is quick)."""
    from ruff import find_ruff_bin
    done = subprocess.run([find_ruff_bin()] + args, stderr=subprocess.PIPE, text=True,
                          errors="replace")
    lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    if done.returncode != 2 or not lines:
        sys.stderr.write(done.stderr)
        return done.returncode
    usage = next((line[len("error:"):].strip() for line in lines if line.startswith("error:")), None)
    if usage is not None:
        say_error(prog, "%s (%s --help)" % (clip(usage), prog))
    else:
        causes = [line[len("Cause:"):].strip() for line in lines if line.startswith("Cause:")]
        say_error(prog, clip(": ".join([lines[0]] + causes)))
    return done.returncode


def _run_target(target, prog):
    """Run `-m MODULE args` or `SCRIPT args` in this process, as Python would
    (a script's folder first on sys.path); its status."""
    import runpy
    if target[0] == "-m":
        module, args = target[1], target[2:]
        if module == "pytest":
            return _pytest(args, prog)
        if module == "ruff":
            return _ruff(args, prog)
        sys.argv = [module] + args
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return 0
    script = os.path.abspath(target[0])
    sys.argv = [script] + target[1:]
    sys.path.insert(0, os.path.dirname(script))
    runpy.run_path(script, run_name="__main__")
    return 0


def _stdout_closed():
    """True when stdout is a pipe whose reader has gone (poll says POLLERR),
    or when that cannot be told."""
    try:
        import select
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _fd, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):
        return True


def _quiet_stdout():
    """Point stdout at /dev/null: Python's flush at exit must not fail again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        pass


def crash_line(err):
    """An unexpected exception in one line, and how to see where it came from."""
    if isinstance(err, OSError) and err.strerror:
        what = err.strerror + (": %s" % err.filename if err.filename else "")
    else:
        what = "%s: %s" % (type(err).__name__, err) if str(err) else type(err).__name__
    return "unexpected error: %s (JARMO_TRACEBACK=1 shows its traceback)" % clip(what)


def guard(argv):
    """run.py --guarded COMMAND [-P] (-m MODULE | SCRIPT) ARGS: the command's
    program, in this process, with every error one line (see above)."""
    command, target = argv[0], argv[1:]
    prog = prog_of(command)
    if target[:1] == ["-P"]:
        target = target[1:]
    _one_line_option_errors(prog)
    try:
        try:
            code = _run_target(target, prog)
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()      # a closed pipe shows here, not at exit
    except KeyboardInterrupt:
        say_error(prog, "interrupted")
        return EXIT_INTERRUPT
    except BrokenPipeError as err:
        if _stdout_closed():
            # the reader has what it wanted (`| head`): stop quietly, as
            # Unix tools do, with the status of a SIGPIPE
            _quiet_stdout()
            return EXIT_PIPE
        if os.environ.get("JARMO_TRACEBACK"):
            raise
        say_error(prog, crash_line(err))
        return 1
    except Exception as err:
        if os.environ.get("JARMO_TRACEBACK"):
            raise
        say_error(prog, crash_line(err))
        return 1
    return code


def in_ci():
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def digest(*paths):
    h = hashlib.sha256()
    for path in paths:
        h.update(os.path.basename(path).encode() + b"\0")
        if os.path.exists(path):
            with open(path, "rb") as f:
                h.update(f.read())
        h.update(b"\0")
    return h.hexdigest()


def read_stamp(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def write_stamp(path, value):
    with open(path, "w") as f:
        f.write(value + "\n")


def venv_python():
    if os.name == "nt":
        return os.path.join(VENV, "Scripts", "python.exe")
    return os.path.join(VENV, "bin", "python")


def run_checked(cmd, what):
    try:
        rc = subprocess.call(cmd, cwd=ROOT, stdin=subprocess.DEVNULL)
    except OSError as e:
        fail("%s failed to start: %s" % (what, e))
    if rc != 0:
        fail("%s failed (exit code %d): %s" % (what, rc, " ".join(cmd)))


def ensure_root_on_path(py):
    """Put the repository root at the END of the venv's sys.path (a .pth file).

    Commands run with `python -P`, so the root is not first on sys.path: the
    device's code.py there would shadow the standard library's `code`.
    """
    purelib = subprocess.check_output(
        [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        stdin=subprocess.DEVNULL, text=True).strip()
    pth = os.path.join(purelib, "_jarmo_root.pth")
    if read_stamp(pth) != ROOT:
        write_stamp(pth, ROOT)


def owner(path):
    """The name of the user who owns path (its uid where names are unknown)."""
    uid = os.stat(path).st_uid
    try:
        import pwd
        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return "uid %d" % uid


def unusable_venv(why):
    """Stop: .venv cannot be used or replaced by this user; say what to do instead."""
    # one line (every error is), however much it has to say
    fail("%s; it cannot be used by %s (Python %s) nor replaced. Instead: run "
         "`python3 run.py ...` as the user who made it; or have that user remove it "
         "(rm -rf %s), and the next run makes a new one; or work in a copy of your own "
         "(git clone %s jarmo, or cp -r) and run it there"
         % (why, sys.executable, sys.version.split()[0], VENV, ROOT))


def venv_version(py):
    """The version of .venv's Python ("3.11.2"), or None when it does not run."""
    if not os.path.exists(py):
        return None
    try:
        out = subprocess.run([py, "-c", "import sys; print(sys.version.split()[0])"],
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def ensure_venv():
    """Create .venv and install requirements.txt when it changed."""
    py = venv_python()
    version = venv_version(py)
    healthy = version is not None
    if not healthy:
        if os.path.lexists(VENV):
            made_by = owner(VENV)
            if hasattr(os, "getuid") and os.stat(VENV).st_uid != os.getuid():
                unusable_venv("%s belongs to another user (%s) and its Python (%s) does not run "
                              "for you" % (VENV, made_by, os.path.realpath(py)))
            if not os.access(VENV, os.W_OK) or not os.access(ROOT, os.W_OK):
                unusable_venv("%s does not run and you may not change it" % VENV)
            say("the .venv is broken (its Python %s does not run); recreating it"
                % os.path.realpath(py))
            try:
                shutil.rmtree(VENV)
            except OSError as err:
                unusable_venv("%s could not be removed (%s)" % (VENV, err.strerror or err))
        say("creating .venv with %s (Python %d.%d)" % (sys.executable, *sys.version_info[:2]))
        run_checked([sys.executable, "-m", "venv", VENV], "creating the virtual environment")
        version = venv_version(py)
    want = digest(REQUIREMENTS) + " " + (version or "")
    writable = os.access(VENV, os.W_OK)
    if not writable and read_stamp(PY_STAMP) != want:
        unusable_venv("%s (made by %s) needs its packages installed again, and you may not "
                      "change it" % (VENV, owner(VENV)))
    try:
        ensure_root_on_path(py)
    except OSError as err:
        unusable_venv("%s could not be set up (%s)" % (VENV, err.strerror or err))
    if read_stamp(PY_STAMP) == want:
        return py
    say("installing Python packages from requirements.txt (first run or it changed)")
    # --no-compile: no .pyc for the whole of every package now (playwright
    # and mypy are large); what is imported compiles on its first import
    run_checked([py, "-m", "pip", "install", "--disable-pip-version-check",
                 "--no-input", "-q", "--no-compile", "-r", REQUIREMENTS], "pip install")
    write_stamp(PY_STAMP, want)
    say("Python packages installed")
    return py


def ensure_kit_packages(py):
    """Install kit/requirements.txt (the case's CAD: about 1 GB) when it
    changed: only for `kit` and `test --full`, which make and check the
    maker's kit; playing and the quick tier never need it."""
    want = digest(KIT_REQUIREMENTS)
    if read_stamp(KIT_STAMP) == want:
        return
    say("installing the maker's kit packages from kit/requirements.txt (first use or it changed)")
    run_checked([py, "-m", "pip", "install", "--disable-pip-version-check",
                 "--no-input", "-q", "--no-compile", "-r", KIT_REQUIREMENTS], "pip install (kit)")
    write_stamp(KIT_STAMP, want)


def ensure_node(required):
    """Install the MicroPython npm package when package-lock.json changed.

    Returns True when Node.js and the package are ready. When Node.js or npm
    is missing it stops with an error if `required`, else warns.
    """
    node = shutil.which("node")
    npm = shutil.which("npm")
    if not node or not npm:
        missing = " and ".join(n for n, p in (("node", node), ("npm", npm)) if not p)
        msg = ("%s not found on PATH. The MicroPython tests need Node.js 20 or newer "
               "with npm (e.g. `apt-get install nodejs npm`)." % missing)
        if required:
            fail(msg)
        say("warning: " + msg + " MicroPython tests will be skipped.")
        return False
    lock_exists = os.path.exists(PACKAGE_LOCK)
    want = digest(PACKAGE_JSON, PACKAGE_LOCK)
    if lock_exists and os.path.isdir(MP_PACKAGE) and read_stamp(NODE_STAMP) == want:
        return True
    if lock_exists:
        say("installing the MicroPython package with `npm ci` (first run or package-lock.json changed)")
        cmd = [npm, "ci"]
    else:
        say("installing the MicroPython package with `npm install` (no package-lock.json yet)")
        cmd = [npm, "install"]
    run_checked(cmd + ["--no-audit", "--no-fund", "--loglevel=error"], "npm")
    if not os.path.isdir(MP_PACKAGE):
        fail("npm finished but %s is missing" % os.path.relpath(MP_PACKAGE, ROOT))
    write_stamp(NODE_STAMP, digest(PACKAGE_JSON, PACKAGE_LOCK))
    say("MicroPython package installed")
    return True


def execute(cmd, env=None):
    """Replace this process by cmd (POSIX) or run it and pass its exit code on.

    cmd is the venv's Python and its arguments; while main() runs a command,
    that program runs under guard(): its errors are one line each."""
    if _running["command"] is not None:
        cmd = [cmd[0], "-P", os.path.abspath(__file__), GUARD, _running["command"]] + cmd[1:]
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.chdir(ROOT)
        if env is None:
            os.execv(cmd[0], cmd)
        os.execve(cmd[0], cmd, env)
    sys.exit(subprocess.call(cmd, cwd=ROOT, env=env))


COMMAND_USAGE = {
    "test": """usage: python3 run.py test [--full] [--firmware PATH] [pytest args]

Runs the test suite with pytest: on CPython, the core tests on MicroPython
1.27 (WebAssembly, under Node.js), and the game on real CircuitPython 10.3
firmware on emulated RP2040 boards (tests/device/, with rp2040js). By
default every rule, every app path and one game on the emulated board, in
about 3 minutes; --full adds the volume runs (thousands of seeded games,
the long runs against tests/reference/, every device test), as CI does.
Arguments go to pytest, e.g. `python3 run.py test -k legendary -x`.
The whole suite runs on two processes (pytest-xdist, `-n 2`); a run of
named test files, or with `-n 0`, runs in one. The
firmware comes from --firmware PATH or JARMO_FIRMWARE (a UF2, or a folder
of them), else it is the stock firmware pinned in firmware/artifacts.json,
fetched on first use into the cache (from the mirror JARMO_MIRROR names,
else built from the pinned CircuitPython source); without one the device
tests skip and say why. On first use it creates .venv and installs
the pinned packages and the npm packages.
""",
    "bench": """usage: python3 run.py bench [--quick] [--device] [--power] [--ai] [--firmware PATH]

Runs every benchmark (tools/bench.py) and prints the figures docs/BENCHMARKS.md
keeps. Host (default): the rules core's memory and speed, the AI's strength
and cost, the app's memory, the LED layer's memory; the AI strength table
takes a few minutes, --quick plays 40 games per pairing. --device: the game
on emulated RP2040 boards with real CircuitPython firmware (heap, boot, the
longest main-loop pass, the AI's thinking time per level and rule set;
tools/bench_device.py and tools/bench_ai_device.py; how fast a press is
answered and the board starts: tools/bench_response.py); --quick: the
budgets only. --power: the power model (tools/bench_power.py: current per
state, hours on a LiPo, docs/power.svg). --ai: level 4 with its book against
20 times its nodes, and the level checks (tools/bench_ai_deep.py --checks).
""",
    "lint": """usage: python3 run.py lint [ruff check args]

Runs `ruff check .` with the rules in pyproject.toml (ruff is pinned in
requirements.txt).
""",
    "play": """usage: python3 run.py play [options]

The handheld simulator in the terminal (python -m host.sim --help for
every option).
""",
    "selfplay": """usage: python3 run.py selfplay [options]

AI self-play statistics (python -m host.selfplay --help for every option).
""",
    "deploy": """usage: python3 run.py deploy DRIVE [options]

Copies the game and its libraries to a CIRCUITPY drive (tools/deploy.py
--help for every option).
""",
    "web": """usage: python3 run.py web [--port N] [--host ADDR] | --build DIR

Serves the handheld as a web page on localhost and prints its address
(fast mode: the game's code in MicroPython WebAssembly; device mode: the
real CircuitPython firmware on an emulated RP2040), or with --build DIR
writes it as a static site (tools/web.py --help for every option).
""",
    "bundle": """usage: python3 run.py bundle [--profile P ...] [--mpy-cross PATH ...]

Writes Project Bundle zips into build/, one per board profile and
CircuitPython major version (tools/bundle.py --help for every option).
""",
    "book": """usage: python3 run.py book [--plies N] [--replies N] [--jobs N] [--seed S] [...]

Computes the AI's opening book (jarmo/book.bin) by a deep search on every
core; an interrupted run resumes (tools/book.py --help for every option).
""",
    "tune": """usage: python3 run.py tune positions|fit|match [--rules R] [...]

Fits the scored evaluation's weights to the outcomes of self-play games:
positions plays them (every core), fit finds the weights, match plays them
against the shipped ones (tools/tune.py --help for every option).
""",
    "firmware": """usage: python3 run.py firmware --profile P [--all] [--stock] [--out DIR]

Builds CircuitPython 10.3 for the profile's board with the game and its
libraries frozen in, from the pinned CircuitPython source
(firmware/artifacts.json; tools/firmware.py --help for every option).
""",
    "kit": """usage: python3 run.py kit [--profile NAME ...] [--out DIR] [--no-case]

Makes the maker's kit of every board profile (or those named) into
build/kit/PROFILE/: bom.csv, wiring.svg, overlay.svg, the case's parts
(STL and STEP) and pictures, and ASSEMBLY.md (docs/KIT.md; tools/kit/make.py
--help for every option). The first run installs the CAD packages of
kit/requirements.txt into .venv.
""",
    "fetch": """usage: python3 run.py fetch [NAME ...] [--list] [--no-build]

Fetches the outside files the project pins in firmware/artifacts.json
(stock CircuitPython UF2s, mpy-cross, CircuitPython's source) into the
cache, checked: from JARMO_MIRROR (a folder or URL) when set, else their
download URL, else built from the pinned source (tools/artifacts.py --help).
""",
}

# Commands that answer --help themselves: asked directly (with the venv's
# Python if there is one), so that --help never creates .venv or starts work.
HELP_COMMANDS = {
    "play": ["-P", "-m", "host.sim", "--help"],
    "selfplay": ["-P", "-m", "host.selfplay", "--help"],
    "deploy": [os.path.join("tools", "deploy.py"), "--help"],
    "bundle": [os.path.join("tools", "bundle.py"), "--help"],
    "web": [os.path.join("tools", "web.py"), "--help"],
    "firmware": [os.path.join("tools", "firmware.py"), "--help"],
    "fetch": [os.path.join("tools", "artifacts.py"), "--help"],
    "kit": ["-P", "-m", "tools.kit.make", "--help"],
    "book": [os.path.join("tools", "book.py"), "--help"],
    "tune": [os.path.join("tools", "tune.py"), "--help"],
}


def wants_help(args):
    """True if -h or --help is among args (before a `--`)."""
    for arg in args:
        if arg == "--":
            return False
        if arg in ("-h", "--help"):
            return True
    return False


def command_help(command):
    """Print a command's usage without starting it; 0."""
    sys.stdout.flush()
    if command in HELP_COMMANDS:
        env = dict(os.environ)
        env["PYTHONPATH"] = ROOT
        env["BLINKA_OS_AGNOSTIC"] = "1"
        # the venv's Python when there is one (the simulator imports
        # adafruit_ticks); never made here, just for a --help
        py = venv_python() if os.path.exists(venv_python()) else sys.executable
        try:
            done = subprocess.run([py] + HELP_COMMANDS[command], cwd=ROOT, env=env,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=60)
        except (OSError, subprocess.SubprocessError):
            done = None
        if done is not None and done.returncode == 0 and done.stdout.strip():
            print(done.stdout, end="")
            return 0
    print(COMMAND_USAGE[command], end="")
    return 0


def parallel_args(args):
    """The whole suite runs on two processes (pytest-xdist; worksteal: an idle
    process takes tests queued for the other, as their lengths differ by
    minutes). A run of named files or tests, or one that sets -n itself,
    stays as asked."""
    named = any(not a.startswith("-") and os.path.exists(os.path.join(ROOT, a.split("::")[0]))
                for a in args)
    if named or any(a == "-n" or a.startswith(("-n", "--numprocesses", "--dist")) for a in args):
        return []
    if (os.cpu_count() or 1) < 2:
        return []
    return ["-n", "2", "--dist", "worksteal"]


def test_env():
    """The suite's environment: CPython keeps the modules it compiles, in the
    venv (out of the tree). The app forgets modules to free RAM and imports
    them again (jarmo/unload.py), and the tests start simulators: with
    PYTHONDONTWRITEBYTECODE set, each import compiled its module from source
    again (the quick tier took 100 s on 2 cores, 82 s with them kept)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(VENV, "pycache")
    return env


def main(argv):
    if argv[:1] == [GUARD]:
        return guard(argv[1:])
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0 if argv else 2
    command, args = argv[0], argv[1:]
    if command not in COMMAND_USAGE:
        fail("unknown command %r; the commands: %s (python3 run.py --help)"
             % (clip(command, 60), ", ".join(COMMAND_USAGE)), 2)
    if wants_help(args):
        return command_help(command)
    _running["command"] = command
    if sys.version_info < (3, 11):
        fail("Python 3.11 or newer is needed (this is %s)" % sys.version.split()[0])
    py = ensure_venv()
    if command == "test":
        ensure_node(required=in_ci())
        if "--full" in args:
            ensure_kit_packages(py)
        execute([py, "-P", "-m", "pytest", "-q"] + parallel_args(args) + args, test_env())
    elif command == "play":
        env = dict(os.environ)
        env["BLINKA_OS_AGNOSTIC"] = "1"
        execute([py, "-P", "-m", "host.sim"] + args, env)
    elif command == "bench":
        ensure_node(required=False)
        execute([py, os.path.join("tools", "bench.py")] + args)  # not -P: tools/ may import its siblings
    elif command == "selfplay":
        execute([py, "-P", "-m", "host.selfplay"] + args)
    elif command == "lint":
        execute([py, "-P", "-m", "ruff", "check", "."] + args)
    elif command == "deploy":
        execute([py, os.path.join("tools", "deploy.py")] + args)
    elif command == "bundle":
        execute([py, os.path.join("tools", "bundle.py")] + args)
    elif command == "web":
        ensure_node(required=True)          # MicroPython WebAssembly and rp2040js go on the site
        execute([py, os.path.join("tools", "web.py")] + args)
    elif command == "firmware":
        execute([py, os.path.join("tools", "firmware.py")] + args)
    elif command == "fetch":
        execute([py, os.path.join("tools", "artifacts.py")] + args)
    elif command == "kit":
        ensure_kit_packages(py)
        execute([py, "-P", "-m", "tools.kit.make"] + args)
    elif command == "book":
        execute([py, os.path.join("tools", "book.py")] + args)
    elif command == "tune":
        execute([py, os.path.join("tools", "tune.py")] + args)
    return 0


def run_main(argv):
    """main(argv), with run.py's own Ctrl-C, closed stdout and unexpected
    errors in one line too (a command's program has guard())."""
    try:
        return main(argv)
    except KeyboardInterrupt:
        say_error("run.py", "interrupted")
        return EXIT_INTERRUPT
    except BrokenPipeError:
        _quiet_stdout()                 # `python3 run.py play --help | head -1`
        return EXIT_PIPE
    except Exception as err:
        if os.environ.get("JARMO_TRACEBACK"):
            raise
        say_error("run.py", crash_line(err))
        return 1


if __name__ == "__main__":
    sys.exit(run_main(sys.argv[1:]))
