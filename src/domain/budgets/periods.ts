// UTC accounting periods and the seconds until they reset (the Retry-After of budget-exceeded).
export const dayKey = (now: Date) => `d:${now.toISOString().slice(0, 10)}`;
export const monthKey = (now: Date) => `m:${now.toISOString().slice(0, 7)}`;

export function secondsUntilNextDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

export function secondsUntilNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
