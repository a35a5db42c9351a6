// @svc/openai-agents: svc memory for the OpenAI Agents SDK.
export { svcMemoryTools, type MemoryToolsOptions } from "./tools.js";
export { SvcSession, type SvcSessionOptions } from "./session.js";
