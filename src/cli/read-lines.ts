// Lines of a byte stream, pulled as the consumer asks for them. Unlike readline's iterator, nothing
// is lost when the consumer starts late (readline emits lines that arrive before iteration begins
// into the void), because a stream's own iterator keeps it paused until read.
export async function* readLines(
  input: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of input) {
    rest += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    const parts = rest.split("\n");
    rest = parts.pop()!;
    for (const line of parts) yield line.endsWith("\r") ? line.slice(0, -1) : line;
  }
  rest += decoder.decode();
  if (rest !== "") yield rest;
}
