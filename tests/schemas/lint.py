#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lints the two description documents (run by `make check`):

docs/openapi.yaml
  * parses as YAML with no duplicate key;
  * is a valid OpenAPI 3.1 document: validated against the official
    OpenAPI 3.1 meta-schema with Schema Object validation (schema-base),
    vendored in tests/schemas/oas-3.1/;
  * every reference is local and resolves; every component is used;
  * operationIds are unique; path templates and path parameters agree;
  * every example (media types, parameters, headers) is valid against its
    own schema.

data/profile.schema.json
  * is a valid Draft 2020-12 schema;
  * accepts the sample data and the integration suite's minimal file.

Whether the module's real answers match docs/openapi.yaml, and whether the
data schema agrees with the module's loader, is checked by the
integration tests (test_openapi.py, test_data_schema.py).

Usage: lint.py [OPENAPI.yaml [DATA-SCHEMA.json]] (default: the repository's)

Exit status: 0 all good, 1 a check failed, 77 (automake SKIP) when
python3-yaml or python3-jsonschema is missing.
"""
import os
import re
import sys

try:
    import yaml  # noqa: F401
    import jsonschema  # noqa: F401
except ImportError as e:
    print("SKIP: %s (install python3-yaml and python3-jsonschema)" % e)
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schemacheck as sc  # noqa: E402

METHODS = ("get", "put", "post", "delete", "options", "head", "patch",
           "trace")
failures = []


def check(name, problems):
    found = []
    try:
        for p in problems:
            found.append(p)
    except Exception as e:      # a broken document can break a check
        found.append("check stopped: %s: %s" % (type(e).__name__,
                                                str(e).splitlines()[0]))
    problems = found
    if problems:
        failures.append(name)
        print("FAIL: %s" % name)
        for p in problems[:30]:
            print("    " + p)
        if len(problems) > 30:
            print("    ... and %d more" % (len(problems) - 30))
    else:
        print("ok: %s" % name)


def walk(node, at="#"):
    """Yields (json-pointer, dict) for every mapping in node."""
    if isinstance(node, dict):
        yield at, node
        for k, v in node.items():
            yield from walk(v, at + "/" + str(k).replace("~", "~0")
                            .replace("/", "~1"))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, "%s/%d" % (at, i))


# ------------------------------------------------------------ openapi
def meta_schema_problems(doc):
    metas = sc.meta_schemas()
    v = sc.validator(metas[sc.OAS_SCHEMA_BASE], metas)
    # The meta-schema's own errors cascade (every enclosing object also
    # reports "unevaluated properties"); the innermost ones say it all.
    errs = list(v.iter_errors(doc))
    leaves = [e for e in errs
              if not any(list(o.absolute_path)[:len(e.absolute_path)]
                         == list(e.absolute_path) and o is not e
                         and len(o.absolute_path) > len(e.absolute_path)
                         for o in errs)]
    for e in leaves:
        yield "$%s: %s" % ("".join("[%r]" % p for p in e.absolute_path),
                           e.message)


def ref_problems(doc):
    for at, node in walk(doc):
        ref = node.get("$ref")
        if not isinstance(ref, str):
            continue
        if not ref.startswith("#/"):
            yield "%s: non-local reference %s" % (at, ref)
            continue
        try:
            sc.resolve(doc, {"$ref": ref})
        except (KeyError, TypeError, ValueError) as e:
            yield "%s: %s does not resolve (%s)" % (at, ref, e)


def unused_components(doc):
    used = set()
    pending = [v for k, v in doc.items() if k != "components"]
    while pending:
        node = pending.pop()
        for _, m in walk(node):
            ref = m.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/") \
                    and ref not in used:
                used.add(ref)
                try:
                    pending.append(sc.resolve(doc, {"$ref": ref}))
                except (KeyError, TypeError, ValueError):
                    pass
    for kind, items in doc.get("components", {}).items():
        for name in items:
            ref = "#/components/%s/%s" % (kind, name)
            if ref not in used:
                yield "%s is never used" % ref


def operation_problems(doc):
    ids = {}
    for path, item in doc.get("paths", {}).items():
        item = sc.resolve(doc, item)
        template = set(re.findall(r"\{([^}]+)\}", path))
        level = [sc.resolve(doc, p) for p in item.get("parameters", [])]
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            where = "%s %s" % (method.upper(), path)
            oid = op.get("operationId")
            if oid in ids:
                yield "%s: operationId %s also used by %s" % (where, oid,
                                                             ids[oid])
            ids[oid] = where
            params = level + [sc.resolve(doc, p)
                              for p in op.get("parameters", [])]
            declared = {p["name"] for p in params if p["in"] == "path"}
            if declared != template:
                yield "%s: path parameters %s, template has %s" % (
                    where, sorted(declared), sorted(template))
            seen = set()
            for p in params:
                key = (p["in"], p["name"].lower() if p["in"] == "header"
                       else p["name"])
                if key in seen:
                    yield "%s: parameter %s given twice" % (where, key)
                seen.add(key)
            if not op.get("responses"):
                yield "%s: no responses" % where


def example_problems(doc):
    """Examples must be valid against the schema they illustrate."""
    def check_value(where, schema, value):
        v = sc.doc_validator(doc, schema)
        for e in sc.errors(v, value):
            yield "%s: %s" % (where, e)

    comps = doc["components"]
    for name, resp in comps.get("responses", {}).items():
        for media, mt in resp.get("content", {}).items():
            for ex_name, ex in (mt.get("examples") or {}).items():
                ex = sc.resolve(doc, ex)
                where = "responses/%s %s examples/%s" % (name, media,
                                                         ex_name)
                if "value" not in ex:
                    yield "%s: no value" % where
                    continue
                yield from check_value(where, mt["schema"], ex["value"])
            if "example" in mt:
                yield from check_value("responses/%s %s example" % (
                    name, media), mt["schema"], mt["example"])
    for kind in ("parameters", "headers"):
        for name, obj in comps.get(kind, {}).items():
            if "example" in obj:
                value = obj["example"]
                schema = obj.get("schema", {})
                if isinstance(value, str) and \
                        sc.resolve(doc, schema).get("type") == "integer":
                    value = int(value)
                yield from check_value("%s/%s example" % (kind, name),
                                       schema, value)
            for ex_name, ex in (obj.get("examples") or {}).items():
                ex = sc.resolve(doc, ex)
                yield from check_value("%s/%s examples/%s" % (
                    kind, name, ex_name), obj.get("schema", {}), ex["value"])


def schema_problems(doc):
    for name, schema in doc["components"].get("schemas", {}).items():
        try:
            sc.Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            yield "schemas/%s: %s" % (name, e.message)


# -------------------------------------------------------- data schema
def data_schema_problems(path):
    schema = sc.load_data_schema(path)
    try:
        sc.Validator.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        yield "not a valid Draft 2020-12 schema: %s" % e.message
        return
    v = sc.validator(schema)
    for rel in ("data/profile.json", "tests/integration/data/minimal.json"):
        data = sc.load_json(os.path.join(sc.SRCDIR, rel))
        for e in sc.errors(v, data):
            yield "%s: %s" % (rel, e)


def main(argv):
    openapi = argv[1] if len(argv) > 1 else sc.OPENAPI
    data_schema = argv[2] if len(argv) > 2 else sc.DATA_SCHEMA
    try:
        doc = sc.load_openapi(openapi)
    except (OSError, yaml.YAMLError) as e:
        check("docs/openapi.yaml parses", ["%s" % e])
        return 1
    check("docs/openapi.yaml parses (no duplicate keys)", [])
    check("docs/openapi.yaml is valid against the OpenAPI 3.1 meta-schema "
          "(%s)" % sc.OAS_SCHEMA_BASE, meta_schema_problems(doc))
    check("references resolve", ref_problems(doc))
    check("every component is used", unused_components(doc))
    check("operations: unique ids, path parameters", operation_problems(doc))
    check("component schemas are valid Draft 2020-12", schema_problems(doc))
    check("examples are valid against their schemas", example_problems(doc))
    check("data/profile.schema.json is valid and accepts the sample data",
          data_schema_problems(data_schema))
    n = 8
    print("%d passed, %d failed" % (n - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
