#!/usr/bin/env python3
"""Runs a folder of n8n workflow test cases against a list of the cases known not to pass yet.

Usage:
  python3 compat/ratchet.py --check ../shared/compat/check.py --exec 'bin/worker execute' \\
      --list compat/n8n-next-failing.txt ../shared/compat/n8n-next [--write]

check.py (outside this repository) runs every case and prints "ok   PATH" or "FAIL PATH: why".
This script fails (exit status 1) when
  * a case that is not on the list fails (a regression, or a new case that needs work), or
  * a case on the list passes (it must leave the list, so the list only shrinks), or
  * a case on the list no longer exists in the folder.
The list holds one path a line, relative to the folder; blank lines and lines starting with #
are ignored. --write rewrites the list (its comment header kept) with the cases failing now and
always exits 0: use it when the list is regenerated, never to make a failure go away.
Standard library only.
"""
import argparse
import os
import shlex
import subprocess
import sys


def read_list(path):
    """The header comment lines and the listed case paths of a list file (absent: none)."""
    header, cases = [], []
    if not os.path.isfile(path):
        return header, cases
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            stripped = line.strip()
            if stripped.startswith("#") and not cases:
                header.append(line)
            elif stripped and not stripped.startswith("#"):
                cases.append(stripped)
    return header, cases


def run_cases(check, command, folder, timeout):
    """Runs check.py on the folder, echoing its lines; answers {relative path: passed} in order."""
    args = [sys.executable, check, "--exec", command, "--timeout", str(timeout), folder]
    results = {}
    summary = None
    with subprocess.Popen(args, stdout=subprocess.PIPE, text=True) as proc:
        for line in proc.stdout:
            print(line, end="", flush=True)
            for mark, passed in (("ok   ", True), ("FAIL ", False)):
                if line.startswith(mark):
                    path = line[len(mark):].rstrip("\n")
                    if not passed:
                        path = path.split(": ", 1)[0]
                    results[os.path.relpath(path, folder)] = passed
            if line.rstrip("\n").endswith(" failed") and " passed, " in line:
                summary = line
    if summary is None:
        raise SystemExit(f"ratchet: {check} ended (status {proc.returncode}) without its summary line")
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", required=True, help="path of check.py")
    ap.add_argument("--exec", required=True, help="command that executes a workflow file")
    ap.add_argument("--list", required=True, help="file listing the cases not passing yet")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per case (default 120)")
    ap.add_argument("--write", action="store_true", help="rewrite the list with the failing cases")
    ap.add_argument("folder")
    a = ap.parse_args()

    folder = os.path.normpath(a.folder)
    header, listed = read_list(a.list)
    results = run_cases(a.check, a.exec, folder, a.timeout)
    failing = sorted(p for p, ok in results.items() if not ok)

    if a.write:
        with open(a.list, "w", encoding="utf-8") as f:
            f.write("\n".join(header + failing) + "\n")
        print(f"ratchet: wrote {len(failing)} failing case(s) to {a.list}")
        return 0

    problems = []
    on_list = set(listed)
    for path in sorted(results):
        if results[path] and path in on_list:
            problems.append(f"{path} passes now: remove it from {a.list}")
        elif not results[path] and path not in on_list:
            problems.append(f"{path} fails and is not on {a.list}: fix it (the list holds only cases that never passed)")
    for path in sorted(on_list - set(results)):
        problems.append(f"{path} is on {a.list} but is not a case in {folder}: remove it from the list")

    print(f"ratchet: {len(results) - len(failing)} passed, {len(failing)} failing "
          f"({len(on_list)} on the list) in {folder}")
    for p in problems:
        print(f"ratchet: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
