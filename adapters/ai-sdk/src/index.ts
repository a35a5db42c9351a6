// @svc/ai-sdk: svc memory for the Vercel AI SDK.
export { svcMemoryTools, type MemoryToolsOptions } from "./tools.js";
export { memoryPrompt, type MemoryPromptOptions } from "./inject.js";
