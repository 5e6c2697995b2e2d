"""Drives term-mcp with the official Python MCP SDK (`mcp`, the seed's own client); run by python-sdk.test.ts.

Usage: drive_term_mcp.py stdio <mode> <node> <cli.js> <workspace>
       drive_term_mcp.py http <mode> <url> <token>
<mode> is 'legacy' (the initialize handshake, 2025-11-25) or '2026-07-28' (stateless, per-request _meta).
Prints one JSON object: what the client saw. Any SDK error (the client validates structuredContent against each
tool's outputSchema) ends the script with a traceback and exit 1.
"""

import asyncio
import json
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def server_for(argv: list[str]):
    transport, _mode = argv[1], argv[2]
    if transport == "stdio":
        node, cli, workspace = argv[3], argv[4], argv[5]
        return StdioServerParameters(command=node, args=[cli, "stdio"], env={"WORKSPACE_ROOT": workspace, "LOG_LEVEL": "error"})
    url, token = argv[3], argv[4]
    return streamable_http_client(url, http_client=create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}))


async def main(argv: list[str]) -> None:
    async with Client(server_for(argv), mode=argv[2]) as client:
        tools = await client.list_tools()
        executed = await client.call_tool("terminal_execute", {"command": "echo from-python-sdk"})
        resource = await client.read_resource("workspace:///hello.txt")
        print(
            json.dumps(
                {
                    "protocol_version": client.protocol_version,
                    "tools": [tool.name for tool in tools.tools],
                    "execute": {"is_error": executed.is_error, "structured": executed.structured_content},
                    "resource": [content.model_dump(mode="json", by_alias=True) for content in resource.contents],
                }
            )
        )


asyncio.run(main(sys.argv))
