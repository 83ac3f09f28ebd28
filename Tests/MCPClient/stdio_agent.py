"""An agent nobody here wrote: the official MCP Python SDK (PyPI `mcp`) drives
`scope-repl --mcp` over stdio, as an agent would, and checks what comes back.

    python stdio_agent.py PATH/TO/scope-repl

Exits 0 when every check holds, 1 (with what differed) otherwise. CI runs it
from .ci/run with the virtual environment .ci/setup makes (.venv-mcp).
"""

import asyncio
import json
import sys

import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from checks import check, error_code, failures, is_error, structured
from mcp.client.stdio import stdio_client


async def main(repl):
    updates = []

    async def on_message(message):
        message = getattr(message, "root", message)
        if isinstance(message, types.ResourceUpdatedNotification):
            updates.append(str(message.params.uri))

    params = StdioServerParameters(command=repl, args=["--mcp"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, message_handler=on_message) as session:
            await session.initialize()
            names = [tool.name for tool in (await session.list_tools()).tools]
            for name in ["storages", "text", "contexts", "replace", "suggest", "suggestions",
                         "preview", "accept", "reject", "edit", "undo", "redo", "track",
                         "tracked"]:
                check(name in names, f"the tool {name} is listed")
            check("quit" not in names and "replay" not in names, "quit and replay are not tools")

            # A document with emoji, a flag, combining marks, CR LF and U+2029.
            text = "Ünïcode 👩‍👩‍👧 teh 🇫🇷 cafe\u0301.\r\nThree fuor.\u2029End.\n"
            added = await session.call_tool("add", {"storage": "notes", "text": text})
            check(not is_error(added) and structured(added)["length"] == len(text.encode("utf-16-le")) // 2,
                  f"add: {structured(added)}")

            resources = await session.list_resources()
            check([str(r.uri) for r in resources.resources] == ["storage://notes"],
                  f"resources: {resources.resources}")
            await session.subscribe_resource("storage://notes")

            contexts = await session.call_tool("contexts", {"scope": "fullDocument"})
            context = structured(contexts)["contexts"][0]
            check(context["text"] == text and context["contextVersion"] == 0, f"contexts: {context}")

            # The agent edits before the typo, as itself: the context moves on.
            edit = await session.call_tool(
                "edit", {"storage": "notes", "offset": 0, "length": 0, "text": "¡"})
            check(not is_error(edit), f"edit: {structured(edit)}")

            # A replacement on version 0 lands where "teh" is now.
            teh = text.encode("utf-16-le").find("teh".encode("utf-16-le")) // 2
            landed = await session.call_tool(
                "replace", {"context": context["id"], "offset": teh, "length": 3, "text": "the",
                            "basis": 0})
            check(not is_error(landed) and structured(landed)["storageRange"] == {"offset": teh + 1, "length": 3},
                  f"replace on basis 0: {structured(landed)}")

            # A basis from the future, an unknown context, wrong types, an
            # out-of-range range, an unknown tool: errors, nothing changed.
            before = structured(await session.call_tool("text", {"storage": "notes"}))
            for name, arguments, code in [
                ("replace", {"context": context["id"], "offset": 0, "length": 1, "text": "x",
                             "basis": 99}, "staleVersion"),
                ("replace", {"context": "8D2F40B4-7A0C-4D3E-9C55-1F2E3D4C5B6A", "offset": 0,
                             "length": 1, "text": "x"}, "unknownContext"),
                ("edit", {"storage": "notes", "offset": "zero", "length": 0, "text": "x"}, "badRequest"),
                ("edit", {"storage": "notes", "offset": 9999, "length": 0, "text": "x"}, "outOfRange"),
                ("edit", {"storage": "notes", "offset": 10, "length": 0, "text": "x"}, "splitsSurrogatePair"),
                ("edit", {"storage": "notes", "offset": 0, "length": 0, "text": "x",
                          "origin": "someone else"}, "badRequest"),
                ("add", {"storage": "passwd", "path": "/etc/passwd"}, "badRequest"),
                ("nope", {}, "badRequest"),
            ]:
                result = await session.call_tool(name, arguments)
                check(is_error(result) and error_code(result) == code,
                      f"{name} {arguments}: {code} expected, got {structured(result)}")
            after = structured(await session.call_tool("text", {"storage": "notes"}))
            check(before == after, "the refused calls changed nothing")

            # A suggestion the person reviews: proposed, listed, accepted.
            fuor = after["text"].encode("utf-16-le").find("fuor".encode("utf-16-le")) // 2
            suggested = await session.call_tool(
                "suggest", {"storage": "notes", "offset": fuor, "length": 4, "kind": "spelling",
                            "explanation": "A typo.", "candidates": ["four"]})
            check(not is_error(suggested), f"suggest: {structured(suggested)}")
            listed = structured(await session.call_tool("suggestions", {"storage": "notes"}))
            check(len(listed["suggestions"]) == 1, f"suggestions: {listed}")
            accepted = await session.call_tool("accept", {"suggestion": structured(suggested)["id"]})
            check(not is_error(accepted), f"accept: {structured(accepted)}")

            # The agent's undo takes back its own edit only.
            undone = await session.call_tool("undo", {})
            check(not is_error(undone), f"undo: {structured(undone)}")
            final = structured(await session.call_tool("text", {"storage": "notes"}))["text"]
            check(final == text.replace("teh", "the").replace("fuor", "four"), f"the text: {final!r}")

            read = await session.read_resource("storage://notes")
            check(read.contents[0].text == final, "the resource is the storage's text")
            await asyncio.sleep(0.2)
            check("storage://notes" in updates, f"a subscriber hears of changes: {updates}")

    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("stdio_agent: every check holds")


asyncio.run(main(sys.argv[1]))
