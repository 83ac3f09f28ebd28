"""What the MCP client scripts share: failures collected, and a tool result
read with the official SDK's 2.x names (or 1.x's)."""

import sys

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def structured(result):
    value = getattr(result, "structured_content", None)
    if value is None:
        value = getattr(result, "structuredContent", None)
    return value


def is_error(result):
    value = getattr(result, "is_error", None)
    if value is None:
        value = getattr(result, "isError", None)
    return bool(value)


def error_code(result):
    return (structured(result) or {}).get("error", {}).get("code")
