# SPDX-License-Identifier: Apache-2.0
"""Shared helpers for checking the two description documents:
docs/openapi.yaml (OpenAPI 3.1) and data/profile.schema.json (JSON Schema
Draft 2020-12).  Used by tests/schemas/lint.py (`make check`) and by the
integration tests that hold the module to them.

Needs python3-yaml and python3-jsonschema (Debian 12: jsonschema 4.10;
newer releases with the `referencing` library work too).  Nothing is ever
fetched from the network: every reference resolves inside the documents or
the vendored OpenAPI meta-schemas (tests/schemas/oas-3.1/).
"""
import glob
import json
import os

import jsonschema
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.environ.get("SRCDIR") or os.path.abspath(
    os.path.join(HERE, "..", ".."))
OPENAPI = os.path.join(SRCDIR, "docs", "openapi.yaml")
DATA_SCHEMA = os.path.join(SRCDIR, "data", "profile.schema.json")
META_DIR = os.path.join(HERE, "oas-3.1")
# The OpenAPI 3.1 meta-schema that also checks Schema Objects against the
# OpenAPI dialect (the Draft 2020-12 meta-schema plus the OAS vocabulary).
OAS_SCHEMA_BASE = "https://spec.openapis.org/oas/3.1/schema-base/2025-11-23"
# A base URI for the OpenAPI document itself, so that "#/components/..."
# references inside its schemas resolve against it.
DOC_URI = "https://mod-profile.invalid/docs/openapi.yaml"

Validator = jsonschema.Draft202012Validator


# ---------------------------------------------------------------- loading
class _UniqueKeyLoader(yaml.SafeLoader):
    """PyYAML keeps the last of two equal keys silently; a description
    with a duplicated key is wrong, so it is refused."""


def _mapping(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, "duplicate key %r" % (key,), key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def load_openapi(path=OPENAPI):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=_UniqueKeyLoader)


def _no_duplicates(pairs):
    seen = set()
    for k, _ in pairs:
        if k in seen:
            raise ValueError("duplicate key %r" % k)
        seen.add(k)
    return dict(pairs)


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f, object_pairs_hook=_no_duplicates)


def load_data_schema(path=DATA_SCHEMA):
    return load_json(path)


def meta_schemas():
    """The vendored OpenAPI 3.1 meta-schemas, by their $id."""
    out = {}
    for f in sorted(glob.glob(os.path.join(META_DIR, "*.json"))):
        d = load_json(f)
        out[d["$id"]] = d
    return out


# ------------------------------------------------------------- validators
def _offline(uri):
    raise LookupError("reference to %s: not vendored, and nothing is "
                      "fetched" % uri)


def validator(schema, documents=None):
    """A Draft 2020-12 validator for `schema`, where references may point
    into `documents` ({uri: document}), the draft meta-schemas jsonschema
    ships, and nowhere else."""
    documents = documents or {}
    try:
        # jsonschema >= 4.18 resolves through the `referencing` library
        # (its old resolver mishandles $dynamicRef there).
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
    except ImportError:
        Registry = None
    if Registry is not None:
        registry = Registry(retrieve=_offline).with_resources(
            (uri, Resource.from_contents(
                doc, default_specification=DRAFT202012))
            for uri, doc in documents.items())
        return Validator(schema, registry=registry)
    # Debian 12's jsonschema 4.10.
    resolver = jsonschema.RefResolver(
        base_uri=schema.get("$id", "") if isinstance(schema, dict) else "",
        referrer=schema, store=documents,
        handlers={"http": _offline, "https": _offline, "urn": _offline,
                  "file": _offline, "": _offline})
    return Validator(schema, resolver=resolver)


def doc_validator(doc, schema):
    """A validator for `schema`, a Schema Object of the OpenAPI document
    `doc`, whose "#/components/..." references resolve inside `doc`."""
    wrapped = {"$schema": "https://json-schema.org/draft/2020-12/schema",
               "$ref": DOC_URI + "#/x-schema"}
    holder = dict(doc)
    holder["x-schema"] = schema
    holder["$id"] = DOC_URI
    return validator(wrapped, {DOC_URI: holder})


def errors(v, instance):
    """The validation errors, as readable lines (best matches first)."""
    out = []
    for e in sorted(v.iter_errors(instance), key=lambda e: list(e.path)):
        where = "$" + "".join("[%r]" % p for p in e.absolute_path)
        out.append("%s: %s" % (where, e.message))
    return out


# ----------------------------------------------------------------- OpenAPI
def resolve(doc, obj):
    """Follows an OpenAPI Reference Object inside `doc` (one level, and
    again while the target is a reference)."""
    seen = 0
    while isinstance(obj, dict) and "$ref" in obj:
        ref = obj["$ref"]
        if not ref.startswith("#/"):
            raise ValueError("only local references are used: %s" % ref)
        obj = doc
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            obj = obj[part]
        seen += 1
        if seen > 20:
            raise ValueError("reference loop at %s" % ref)
    return obj
