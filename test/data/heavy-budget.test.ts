// A tenant's budget of heavy database time (src/data/heavy-budget.ts) on a clock the test turns:
// running time is charged, the budget refills at its rate and saves up at most five seconds of it.
import { expect, test } from "bun:test";
import { createHeavyBudget } from "../../src/data/heavy-budget";

const clock = () => {
  let t = 0;
  return { now: () => t, pass: (ms: number) => void (t += ms) };
};

test("a query longer than what was saved leaves a debt, paid back at the budget's rate", () => {
  const time = clock();
  const budget = createHeavyBudget(200, time.now); // a tenth of a 2-core database
  expect(budget.owedFor("a")).toBe(0);
  budget.charge("a", 3000); // a CYPHER product to its 3 s timeout; 1 s was saved up
  expect(budget.owedFor("a")).toBe(10_000);
  time.pass(4000);
  expect(budget.owedFor("a")).toBe(6000);
  time.pass(6000);
  expect(budget.owedFor("a")).toBe(0);
  expect(budget.owedFor("b")).toBe(0); // another tenant owes nothing
});

test("short queries within the saved time owe nothing; idle time saves no more than 5 s", () => {
  const time = clock();
  const budget = createHeavyBudget(200, time.now);
  for (let i = 0; i < 40; i++) budget.charge("a", 20); // 800 ms of 1,000 saved
  expect(budget.owedFor("a")).toBe(0);
  time.pass(3_600_000);
  budget.charge("a", 1500);
  expect(budget.owedFor("a")).toBe(2500); // 500 ms owed at 200 ms a second
});

test("the database is shared while another tenant was active within the last five seconds", () => {
  const time = clock();
  const budget = createHeavyBudget(200, time.now);
  budget.seen("a");
  expect(budget.contended("a")).toBe(false); // its own activity shares nothing
  budget.seen("b");
  expect(budget.contended("a")).toBe(true);
  time.pass(4999);
  expect(budget.contended("a")).toBe(true);
  time.pass(2);
  expect(budget.contended("a")).toBe(false); // b went quiet
});
