# SPDX-License-Identifier: Apache-2.0
"""import-jsonresume over the real corpus changed the way people's files
differ (issue 27): members deleted, emptied, given as arrays, per
language, as other types, renamed in another case; entries repeated or
reordered; dates in the forms people write.  Whatever it meets, the
import either writes a data file `profilectl check` accepts or refuses
with its problems (exit status 1): never a crash, never its own result
refused ("a bug in profilectl"), never another status.  The changes are
drawn from a fixed seed, so a failure names a case that can be run
again (the documents are kept under the test's tmp_path)."""
import copy
import glob
import json
import os
import random

import pytest

from test_jsonresume import JR_DATA, profilectl, write

REAL = os.path.join(JR_DATA, "real")
# People's date forms, understood or not.
DATES = ["Present day", "2020-02-30", "1/1/2023", "abril 2020",
         "Present (part-time)", "2019", "", None, "Hoy", "13/13/2013",
         "2020-13", 2019, "3/4/2020", "Current"]
OTHERS = [None, 1, 2.5, True, [], {}, "z", [None], {"en": "x"}]


def _bases():
    """(files, languages) of every pair and of the singles in JSON
    Resume's shape."""
    out = []
    for en in sorted(glob.glob(os.path.join(REAL, "*.en.json"))):
        es = en[:-len("en.json")] + "es.json"
        out.append(([en, es], ["en", "es"]))
    for f in sorted(glob.glob(os.path.join(REAL, "*.json"))):
        base = os.path.basename(f)
        if base.endswith((".en.json", ".es.json")):
            continue
        lang = base.split(".")[-2] if base.count(".") > 1 else "en"
        out.append(([f], [lang]))
    return out


def _paths(d, p=()):
    if isinstance(d, dict):
        for k, v in d.items():
            yield p + (k,)
            yield from _paths(v, p + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield p + (i,)
            yield from _paths(v, p + (i,))


def _mutate(rng, doc):
    paths = list(_paths(doc))
    if not paths:
        return
    p = rng.choice(paths)
    parent = doc
    for k in p[:-1]:
        parent = parent[k]
    k, r = p[-1], rng.random()
    v = parent[k]
    if r < .2:
        del parent[k]
    elif r < .3 and isinstance(v, str):
        parent[k] = ""
    elif r < .4 and isinstance(v, str):
        parent[k] = [v, "second paragraph"]
    elif r < .5 and isinstance(v, str):
        parent[k] = {"en": v, "es": v + " (es)"}
    elif r < .6 and isinstance(parent, list):
        parent.append(copy.deepcopy(v))
    elif r < .7 and isinstance(parent, list):
        rng.shuffle(parent)
    elif r < .8 and "ate" in str(k):
        parent[k] = rng.choice(DATES)
    elif r < .9:
        parent[k] = copy.deepcopy(rng.choice(OTHERS))
    elif isinstance(parent, dict):
        parent[k.upper()] = parent.pop(k)


def _load(path):
    with open(path, encoding="utf-8-sig") as f:
        return json.load(f)


# Not the JSONC file, kept malformed on purpose.
BASES = [b for b in _bases() if "35-jsonc" not in b[0][0]]


@pytest.mark.parametrize("seed", range(8))
def test_changed_corpus_files_import_or_are_refused(seed, tmp_path):
    rng = random.Random(seed)
    statuses = set()
    for case in range(40):
        files, langs = rng.choice(BASES)
        docs = [_load(f) for f in files]
        for _ in range(rng.randint(1, 6)):
            _mutate(rng, rng.choice(docs))
        paths = [write(tmp_path / ("c%d.%s.json" % (case, lang)), d)
                 for d, lang in zip(docs, langs)]
        cp = profilectl("import-jsonresume", *paths, "--lang-order",
                        ",".join(langs))
        where = "seed %d case %d: %s" % (seed, case, paths)
        assert cp.returncode in (0, 1), (where, cp.returncode, cp.stderr)
        assert "a bug in profilectl" not in cp.stderr, (where, cp.stderr)
        statuses.add(cp.returncode)
        if cp.returncode == 1:
            assert cp.stdout == "" and "nothing written" in cp.stderr, where
            continue
        out = write(tmp_path / ("c%d.profile.json" % case),
                    json.loads(cp.stdout))
        check = profilectl("check", out)
        assert check.returncode == 0, (where, check.stdout + check.stderr)
        for p in paths:
            os.unlink(p)
        os.unlink(out)
    # The changes are mild enough that most files still import.
    assert 0 in statuses
