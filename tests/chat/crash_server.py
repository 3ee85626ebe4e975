"""A chat server process for the kill -9 tests: the real app on loopback, SQLite store in ``argv[1]``.

The scripted model answers a question with a tool call (its search takes ``argv[3]`` seconds, so a kill
lands inside the tool round) and a tool result with text; ``argv[4]`` seconds before the first event of
each reply (so a kill lands before any answer). Run: python -m tests.chat.crash_server DIR PORT TOOL_S FIRST_S
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import uvicorn

from chat.models.port import ModelRequest
from chat.models.scripted import Reply, ScriptedModel, Text, ToolUse
from tests.chat.chat_harness import FakeRetriever, make_harness


def main() -> None:
    data, port, tool_s, first_s = Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])

    async def reply(request: ModelRequest) -> Reply:
        await asyncio.sleep(first_s)
        if request.messages[-1]["content"][0].get("type") == "tool_result":
            return Reply(Text("The answer [S1]."))
        return Reply(Text("Let me look."), ToolUse("search_documents", {"query": "revenue"}))

    h = make_harness(data, ScriptedModel(reply))

    class SlowRetriever(FakeRetriever):
        async def search(self, *args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(tool_s)
            return await super().search(*args, **kwargs)

    h.chat.agent.tools.retriever = SlowRetriever(h.ingest)
    uvicorn.run(h.app(), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
