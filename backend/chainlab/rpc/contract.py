"""The contract of the backend's wire (contract/schemas, reached through the package as chainlab/contract).

The error codes, the contract version the client must speak, the method names, and `validate_reply` for tests:
every reply checked against its method's result schema, every error's data against its schema.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

import jsonschema
from referencing import Registry, Resource


def contract_file(name: str) -> Any:
    """A file of contract/schemas as JSON (through the package, so an installed backend finds it too)."""
    return json.loads(resources.files("chainlab").joinpath("contract", name).read_text(encoding="utf-8"))


CONTRACT_VERSION: str = contract_file("contract.json")["version"]
#: name → JSON-RPC error code (contract/schemas/errors.json).
ERROR_CODES: dict[str, int] = {name: e["code"] for name, e in contract_file("errors.json")["errors"].items()}
#: The backend's methods: name → {params, result} schema references (contract/schemas/methods.json).
BACKEND_METHODS: dict[str, dict[str, str]] = contract_file("methods.json")["backend"]["requests"]


class ContractMismatch(Exception):
    """The client speaks another contract version than this backend."""

    def __init__(self, client: str):
        super().__init__(
            f"chainlab backend speaks contract {CONTRACT_VERSION}, this client {client}: "
            "install matching versions of the backend (chainlab-backend) and of the CLI or extension"
        )
        self.data = {"backend": CONTRACT_VERSION, "client": client}


def check_client_version(client: Any) -> None:
    """backend/version's handshake: a client that names another contract version is refused."""
    if client is not None and client != CONTRACT_VERSION:
        raise ContractMismatch(str(client))


@lru_cache(maxsize=1)
def _registry() -> tuple[str, Registry]:
    schemas = [
        contract_file(entry.name)
        for entry in resources.files("chainlab").joinpath("contract").iterdir()
        if entry.name.endswith(".schema.json")
    ]
    for schema in schemas:
        jsonschema.Draft202012Validator.check_schema(schema)
    base = schemas[0]["$id"].rsplit("/", 1)[0] + "/"
    return base, Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas)


def schema_errors(ref: str, value: Any) -> list[str]:
    """Every violation of the schema at `ref` (FILE#/$defs/NAME) as `/path: message`, shortest paths first."""
    base, registry = _registry()
    validator = jsonschema.Draft202012Validator({"$ref": base + ref}, registry=registry)
    errors = sorted(validator.iter_errors(value), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    return [f"/{'/'.join(str(p) for p in e.absolute_path)}: {e.message}" for e in errors]


def reply_errors(method: str, result: Any) -> list[str]:
    """What is wrong with a reply of `method`, against its result schema (empty when it conforms)."""
    return schema_errors(BACKEND_METHODS[method]["result"], result)


def validate_reply(method: str, result: Any) -> Any:
    """The reply if it conforms to `method`'s result schema; an AssertionError naming the violations otherwise."""
    errors = reply_errors(method, result)
    assert not errors, f"{method} reply breaks the contract:\n  " + "\n  ".join(errors[:10])
    return result


def validate_error(error: dict[str, Any]) -> dict[str, Any]:
    """A JSON-RPC error object whose code is the contract's and whose data (if its code has a schema) conforms."""
    errors = contract_file("errors.json")["errors"]
    by_code = {e["code"]: e for e in errors.values()}
    assert error.get("code") in by_code, f"error code {error.get('code')} is not in the contract"
    spec = by_code[error["code"]]
    if "data" in spec:
        problems = schema_errors(spec["data"], error.get("data"))
        assert not problems, "error data breaks the contract:\n  " + "\n  ".join(problems[:10])
    return error
