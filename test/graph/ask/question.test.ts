// ASK's question reader (pure): the kind of answer a question wants, and the relations it asks
// about with the named entity's role, from nouns (fixed role), verbs (word order) and passives
// (swapped).
import { describe, expect, test } from "bun:test";
import {
  answerKind,
  mentionsRelationName,
  readQuestion,
} from "../../../src/domain/recall/ask/question";

const cues = (question: string, entity: string) =>
  readQuestion(question, question.toLowerCase().indexOf(entity.toLowerCase()))
    .cues.map((c) => `${c.relation}/${c.role}`)
    .sort();

describe("relations and roles", () => {
  const cases: Array<[string, string, string[]]> = [
    ["Who is Bob's manager?", "Bob", ["MANAGES/object", "REPORTS_TO/subject"]],
    ["Who does Bob report to?", "Bob", ["MANAGES/object", "REPORTS_TO/subject"]],
    ["Who reports to Bob?", "Bob", ["MANAGES/subject", "REPORTS_TO/object"]],
    ["Who manages Bob?", "Bob", ["MANAGES/object", "REPORTS_TO/subject"]],
    ["Who is Bob managed by?", "Bob", ["MANAGES/object", "REPORTS_TO/subject"]],
    ["Where does Alice live?", "Alice", ["LIVES_IN/subject"]],
    ["Who works at Acme?", "Acme", ["WORKS_AT/object"]],
    ["Who is Alice married to?", "Alice", ["MARRIED_TO/subject"]],
  ];
  for (const [question, entity, expected] of cases) {
    test(`${question} → ${expected.join(", ")}`, () =>
      expect(cues(question, entity)).toEqual(expected));
  }
  test("no relation word: no cue", () =>
    expect(readQuestion("Tell me about Alice", 13).cues).toEqual([]));
});

test("answer kinds", () => {
  expect(answerKind("Who is Bob's manager?")).toBe("who");
  expect(answerKind("Where does Alice live?")).toBe("where");
  expect(answerKind("When did Alice move?")).toBe("when");
  expect(answerKind("How many people report to Bob?")).toBe("count");
  expect(answerKind("Does Alice report to Bob?")).toBe("yesno");
  expect(answerKind("What does Bob use?")).toBe("what");
});

test("relation names the cue tables do not know are matched by their words", () => {
  expect(mentionsRelationName("What did Alice adopt?", "ADOPTED")).toBe(true);
  expect(mentionsRelationName("Whom does Bob mentor?", "MENTORS")).toBe(true);
  expect(mentionsRelationName("Where does Alice live?", "ADOPTED")).toBe(false);
  expect(mentionsRelationName("Is it in there?", "IN")).toBe(false);
});
