// Polls until a condition holds; the deadline only bounds a hang, it is never the assertion itself.
export async function eventually<T>(
  probe: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== null && value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    await Bun.sleep(50);
  }
  throw new Error(`gave up waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
}
