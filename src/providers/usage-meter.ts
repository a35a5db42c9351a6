// The budget port the metering decorators call: reserve an estimate before a provider call, settle
// the actual spend after it. The domain implements it (src/domain/budgets/meter.ts).
export type Reservation = { orgId: string; periods: string[]; reserved: number };
export type Spend = { tokens: number; embeddingCalls?: number; llmCalls?: number };

export interface UsageMeter {
  reserve(orgId: string, estimatedTokens: number): Promise<Reservation>;
  settle(reservation: Reservation, spend: Spend): Promise<void>;
}
