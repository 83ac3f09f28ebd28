"""An agent nobody here wrote, over HTTP: the official MCP Python SDK (PyPI
`mcp`) connects to the example editor's Streamable HTTP endpoint
(`editor --mcp PORT`) while a person types in the editor's terminal (a
pseudo-terminal this script drives), and checks what comes back.

    python http_agent.py PATH/TO/editor

Exits 0 when every check holds, 1 (with what differed) otherwise. CI runs it
from .ci/run with the virtual environment .ci/setup makes (.venv-mcp).
"""

import asyncio
import fcntl
import http.client
import json
import os
import pty
import select
import socket
import struct
import sys
import tempfile
import termios
import threading
import time

import mcp.types as types
from mcp import ClientSession
from checks import check, error_code, failures, is_error, structured
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

TOKEN = "s3cret-token-for-the-test"
F7 = b"\x1b[18~"
RIGHT = b"\x1b[C"
ENTER = b"\r"


def utf16_offset(text, part):
    return text.encode("utf-16-le").find(part.encode("utf-16-le")) // 2


class Editor:
    """The editor in a pseudo-terminal of 100 × 30, its screen drained."""

    def __init__(self, binary, port, path):
        pid, fd = pty.fork()
        if pid == 0:
            os.environ["TERM"] = "xterm-256color"
            os.environ["MCP_TOKEN"] = TOKEN
            os.execv(binary, [binary, "--no-spelling", "--mcp", str(port), path])
        self.pid = pid
        self.fd = fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.screen = bytearray()
        self.lock = threading.Lock()
        self.running = True
        self.reader = threading.Thread(target=self.drain, daemon=True)
        self.reader.start()

    def drain(self):
        while self.running:
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            with self.lock:
                self.screen += data

    def type(self, data):
        os.write(self.fd, data)

    def alive(self):
        return os.waitpid(self.pid, os.WNOHANG) == (0, 0)

    def stop(self):
        self.running = False
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except OSError:
            pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(0.1)
    return False


def raw(port, method, path="/mcp", body=None, headers=None):
    """One plain HTTP request: (status, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    except (ConnectionError, OSError) as error:
        return None, str(error).encode()
    finally:
        connection.close()


INITIALIZE = json.dumps({
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "raw", "version": "1"}}})


def bad_inputs(port):
    """Every bad request gets its status, and no session or edit."""
    auth = {"Authorization": f"Bearer {TOKEN}"}
    json_headers = {**auth, "Content-Type": "application/json",
                    "Accept": "application/json, text/event-stream"}
    for what, method, path, body, headers, status in [
        ("no token", "POST", "/mcp", INITIALIZE,
         {"Content-Type": "application/json"}, 401),
        ("a wrong token", "POST", "/mcp", INITIALIZE,
         {"Authorization": "Bearer nope", "Content-Type": "application/json"}, 401),
        ("another site's Origin (DNS rebinding)", "POST", "/mcp", INITIALIZE,
         {**json_headers, "Origin": "http://evil.example"}, 403),
        ("another path", "POST", "/other", INITIALIZE, json_headers, 404),
        ("malformed JSON", "POST", "/mcp", "{not json", json_headers, 400),
        ("a JSON-RPC batch", "POST", "/mcp", "[" + INITIALIZE + "]", json_headers, 400),
        ("not JSON's media type", "POST", "/mcp", INITIALIZE,
         {**auth, "Content-Type": "text/plain"}, 415),
        ("no session", "POST", "/mcp",
         json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}), json_headers, 400),
        ("an unknown session", "POST", "/mcp",
         json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
         {**json_headers, "MCP-Session-Id": "nope"}, 404),
        ("an unknown protocol version", "POST", "/mcp", INITIALIZE,
         {**json_headers, "MCP-Protocol-Version": "1999-01-01"}, 400),
        ("PUT", "PUT", "/mcp", INITIALIZE, json_headers, 405),
        ("an oversized body", "POST", "/mcp", "x" * (5 << 20), json_headers, 413),
    ]:
        got, answer = raw(port, method, path, body, headers)
        check(got == status, f"{what}: HTTP {status} expected, got {got} {answer[:200]!r}")


async def main(binary):
    port = free_port()
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "notes.txt")
    original = "The quick brwn fox 👩‍👩‍👧 jumps.\r\nA sëcond line 🇫🇷.\n"
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(original)
    editor = Editor(binary, port, path)
    try:
        check(wait_for_port(port), f"the editor listens on {port}")
        bad_inputs(port)
        url = f"http://127.0.0.1:{port}/mcp"
        updates = []

        async def on_message(message):
            message = getattr(message, "root", message)
            if isinstance(message, types.ResourceUpdatedNotification):
                updates.append(str(message.params.uri))

        async with create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"}) as client:
            async with streamable_http_client(url, http_client=client) as streams:
                read, write = streams[0], streams[1]
                async with ClientSession(read, write, message_handler=on_message) as session:
                    await session.initialize()
                    names = [tool.name for tool in (await session.list_tools()).tools]
                    for name in ["storages", "text", "contexts", "replace", "suggest", "accept",
                                 "edit", "undo"]:
                        check(name in names, f"the tool {name} is listed")
                    storages = structured(await session.call_tool("storages", {}))["storages"]
                    cell = storages[0]["storage"]
                    text = structured(await session.call_tool("text", {"storage": cell}))["text"]
                    check(text == original, f"the agent reads the file: {text!r}")
                    await session.subscribe_resource(f"storage://{cell}")

                    # A Writing Tools session over the whole document.
                    contexts = structured(
                        await session.call_tool("contexts", {"scope": "fullDocument"}))
                    context = contexts["contexts"][0]
                    check(context["text"] == original, f"contexts: {context}")

                    # The person types at the start and inside "quick".
                    editor.type(b"Hey, ")
                    for _ in range(6):
                        editor.type(RIGHT)
                    heard = len(updates)
                    editor.type(b"!")
                    # The person pauses: a subscriber hears of it without a
                    # call of its own.
                    await asyncio.sleep(1.0)
                    check(len(updates) > heard and updates[-1] == f"storage://{cell}",
                          f"a subscriber hears of the person's typing: {updates}")
                    expected = "Hey, The qu!ick brwn fox 👩‍👩‍👧 jumps.\r\nA sëcond line 🇫🇷.\n"
                    for _ in range(100):
                        text = structured(await session.call_tool("text", {"storage": cell}))["text"]
                        if text == expected:
                            break
                        await asyncio.sleep(0.05)
                    check(text == expected, f"the person's typing reaches the agent: {text!r}")

                    # On the version it read: "brwn" lands where it is now.
                    brwn = utf16_offset(original, "brwn")
                    landed = await session.call_tool(
                        "replace", {"context": context["id"], "offset": brwn, "length": 4,
                                    "text": "brown", "basis": 0})
                    check(not is_error(landed)
                          and structured(landed)["storageRange"] == {"offset": brwn + 6, "length": 5},
                          f"replace on basis 0 lands mapped: {structured(landed)}")
                    # "quick" was edited by the person since: refused, nothing lost.
                    quick = utf16_offset(original, "quick")
                    refused = await session.call_tool(
                        "replace", {"context": context["id"], "offset": quick, "length": 5,
                                    "text": "slow", "basis": 0})
                    check(is_error(refused) and error_code(refused) == "conflict",
                          f"a stale replacement is refused: {structured(refused)}")
                    future = await session.call_tool(
                        "replace", {"context": context["id"], "offset": 0, "length": 1,
                                    "text": "x", "basis": 99})
                    check(is_error(future) and error_code(future) == "staleVersion",
                          f"a basis from the future is refused: {structured(future)}")

                    # Bad calls: errors with the protocol's codes, nothing changed.
                    before = structured(await session.call_tool("text", {"storage": cell}))
                    for name, arguments, code in [
                        ("edit", {"storage": cell, "offset": "zero", "length": 0, "text": "x"},
                         "badRequest"),
                        ("edit", {"storage": cell, "offset": 9999, "length": 0, "text": "x"},
                         "outOfRange"),
                        ("edit", {"storage": "nope", "offset": 0, "length": 0, "text": "x"},
                         "unknownStorage"),
                        ("nope", {}, "badRequest"),
                    ]:
                        result = await session.call_tool(name, arguments)
                        check(is_error(result) and error_code(result) == code,
                              f"{name} {arguments}: {code} expected, got {structured(result)}")
                    after = structured(await session.call_tool("text", {"storage": cell}))
                    check(before == after, "the refused calls changed nothing")

                    # A grammar result the person reviews in the editor: F7, Enter.
                    now = after["text"]
                    fox = utf16_offset(now, "fox")
                    suggested = await session.call_tool(
                        "suggest", {"storage": cell, "offset": fox, "length": 3, "kind": "grammar",
                                    "explanation": "A cat, rather.", "candidates": ["cat"]})
                    check(not is_error(suggested), f"suggest: {structured(suggested)}")
                    await asyncio.sleep(0.3)
                    editor.type(F7)
                    await asyncio.sleep(0.3)
                    editor.type(ENTER)
                    accepted = now.replace("fox", "cat")
                    for _ in range(100):
                        text = structured(await session.call_tool("text", {"storage": cell}))["text"]
                        if text == accepted:
                            break
                        await asyncio.sleep(0.05)
                    check(text == accepted, f"the person accepted the agent's suggestion: {text!r}")

                    # The agent edits as itself, and its undo takes back only that.
                    edit = await session.call_tool(
                        "edit", {"storage": cell, "offset": 0, "length": 0, "text": "¡"})
                    check(not is_error(edit), f"edit: {structured(edit)}")
                    undone = await session.call_tool("undo", {})
                    check(not is_error(undone), f"undo: {structured(undone)}")
                    text = structured(await session.call_tool("text", {"storage": cell}))["text"]
                    check(text == accepted, f"the agent's undo took back its edit only: {text!r}")
                    await asyncio.sleep(0.3)
                    check(f"storage://{cell}" in updates,
                          f"a subscriber hears of changes: {updates}")
        check(editor.alive(), "the editor is still running")
    finally:
        editor.stop()

    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("http_agent: every check holds")


asyncio.run(main(sys.argv[1]))
