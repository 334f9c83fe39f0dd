#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a large, valid mod_profile data file derived from the sample.

    bench/gen-bigdata.py [--experience N] [--case-studies M] OUT

The sample's experience records and case studies are repeated with unique
ids and numbered texts (both languages), so every record differs and the
filters (q, organization) keep matching something.  The defaults give about
10 MB: 5,000 experience records and 5,000 case studies.  Deterministic: the
same arguments write the same bytes.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "data", "profile.json")
LIMIT = 50       # characters kept of each text


def shorter(text, limit):
    """text cut at a word boundary to at most `limit` characters."""
    if len(text) <= limit:
        return text
    return text[:text.rfind(" ", 0, limit)] + "…"


def numbered(value, n, limit=LIMIT):
    """The value with every translated text shortened and tagged with
    record number n."""
    if isinstance(value, dict) and set(value) <= {"en", "es"}:
        return {"en": "%s (#%d)" % (shorter(value["en"], limit), n),
                "es": "%s (n.º %d)" % (shorter(value["es"], limit), n)}
    if isinstance(value, list):
        return [numbered(v, n) for v in value]
    return value


def variants(records, count, prefix, keep):
    out = []
    for n in range(count):
        src = records[n % len(records)]
        rec = {}
        for key, value in src.items():
            if key == "id":
                rec[key] = "%s-%s-%05d" % (prefix, value, n)
            elif isinstance(value, list):
                rec[key] = numbered(value[:keep], n)
            else:
                rec[key] = numbered(value, n)
        out.append(rec)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experience", type=int, default=5000)
    ap.add_argument("--case-studies", type=int, default=5000)
    ap.add_argument("--keep", type=int, default=2,
                    help="list elements kept per record (default 2)")
    ap.add_argument("out")
    args = ap.parse_args()
    with open(SAMPLE, encoding="utf-8") as f:
        data = json.load(f)
    data["experience"] = variants(data["experience"], args.experience,
                                  "x", args.keep)
    data["caseStudies"] = variants(data["caseStudies"], args.case_studies,
                                   "c", args.keep)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    size = os.path.getsize(args.out)
    print("%s: %d bytes, %d experience records, %d case studies"
          % (args.out, size, args.experience, args.case_studies),
          file=sys.stderr)


if __name__ == "__main__":
    main()
