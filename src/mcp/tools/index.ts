// Every MCP tool, in the order tools/list shows them; a server offers those whose catalog entry's
// gate is on (src/operations/), like the REST routes they share it with.
import type { Gates } from "../../config/gates";
import { gateOn, operationOfTool } from "../../operations";
import type { McpTool } from "../tool";
import { FORGE_TOOLS } from "./forge";
import { MEMORY_TOOLS } from "./memories";

export const MCP_TOOLS: McpTool[] = [...MEMORY_TOOLS, ...FORGE_TOOLS];

/** A tool the catalog does not name is offered nowhere. */
export const toolsFor = (gates: Gates): McpTool[] =>
  MCP_TOOLS.filter((tool) => {
    const operation = operationOfTool(tool.name);
    return operation !== undefined && gateOn(gates, operation.gate);
  });
