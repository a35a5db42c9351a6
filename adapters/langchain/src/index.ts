// @svc/langchain: svc memory for LangChain.js.
export { SvcRetriever, type SvcRetrieverInput } from "./retriever.js";
export { SvcChatMessageHistory, type SvcChatMessageHistoryInput } from "./chat-history.js";
