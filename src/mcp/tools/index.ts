// Every MCP tool, in the order tools/list shows them; the gates decide which ones a server offers.
import type { Gates } from "../../config/gates";
import type { McpTool } from "../tool";
import { FORGE_TOOLS } from "./forge";
import { MEMORY_TOOLS } from "./memories";

export const MCP_TOOLS: McpTool[] = [...MEMORY_TOOLS, ...FORGE_TOOLS];

export const toolsFor = (gates: Gates): McpTool[] => MCP_TOOLS.filter((tool) => tool.gate(gates));
