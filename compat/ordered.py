#!/usr/bin/env python3
"""Runs the corpus checker (check.py, outside this repository) with key order compared too.

Usage:
  FLOWMILL_COMPAT_CHECK=../shared/compat/check.py python3 compat/ordered.py --exec 'bin/worker execute' PATH...

Arguments are check.py's own. check.py compares results with dict equality, which ignores the
order of an object's keys. n8n keeps JavaScript insertion order in item data, and so does
Flowmill, so this wrapper loads every JSON document (the test files, their sidecars and the
command's output) with objects as OrderedDict, whose equality is order-sensitive: an item whose
fields come out in another order than n8n's fails. The corpus files keep n8n's order.
Only item data ("json") is compared in order: binary properties are metadata records whose field
order differs between n8n's own nodes, so they are compared as before.

ratchet.py takes this file as its --check. FLOWMILL_COMPAT_CHECK names check.py (default
../shared/compat/check.py, relative to the current directory). Standard library only.
"""
import collections
import importlib.util
import json
import os
import sys
import types


def ordered_json():
    """The json module as check.py uses it, with objects decoded as OrderedDict."""
    shim = types.ModuleType("json")
    shim.__dict__.update(json.__dict__)
    shim.load = lambda fp, **kw: json.load(fp, object_pairs_hook=collections.OrderedDict, **kw)
    shim.loads = lambda s, **kw: json.loads(s, object_pairs_hook=collections.OrderedDict, **kw)
    return shim


def plain(value):
    """value with every object a plain dict again (order-insensitive equality)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def binary_unordered(items):
    """Items with their binary properties compared without order."""
    if items is None:
        return None
    out = []
    for item in items:
        if isinstance(item, dict) and "binary" in item:
            item = dict(item, binary=plain(item["binary"]))
        out.append(item)
    return out


def load_check(path):
    spec = importlib.util.spec_from_file_location("flowmill_compat_check", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"ordered: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.json = ordered_json()
    plain_fill = module.fill

    def fill(value, folder, tmp):
        # A sidecar's expected output keeps its order once {dir} and {tmp} are filled in.
        if isinstance(value, dict):
            return collections.OrderedDict((k, fill(v, folder, tmp)) for k, v in value.items())
        return plain_fill(value, folder, tmp)

    module.fill = fill
    plain_items_of, plain_normalise = module.items_of, module.normalise_expected
    module.items_of = lambda run: binary_unordered(plain_items_of(run))
    module.normalise_expected = lambda items: binary_unordered(plain_normalise(items))
    return module


def main():
    path = os.environ.get("FLOWMILL_COMPAT_CHECK", os.path.join("..", "shared", "compat", "check.py"))
    if not os.path.isfile(path):
        raise SystemExit(f"ordered: check.py not found at {path} (set FLOWMILL_COMPAT_CHECK)")
    check = load_check(path)
    sys.argv[0] = path
    check.main()


if __name__ == "__main__":
    main()
