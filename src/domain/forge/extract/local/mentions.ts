// One memory's entities: noun phrases become mentions, pronouns are resolved (I / me / my / we →
// the agent's user; he / she → the most recent person; it → the most recent thing; they → the most
// recent subject), and mentions are registered once per (type, normalised name). Never across
// memories.
import type { MemoType } from "../../../graph/memo-types";
import { normalizeName } from "../../../graph/normalize";
import type { ExtractedEntity } from "../types";
import { isGeneric, typeOf } from "./entity-type";
import { PERSON_PRONOUNS, PLURAL_PRONOUNS, THING_PRONOUNS, USER_PRONOUNS } from "./lexicon";
import type { NounPhrase } from "./units";

/** The entity every first-person pronoun resolves to: one per agent, deduplicated like any memo. */
export const USER_ENTITY = {
  name: "user",
  type: "PERSON",
  description: 'the agent\'s user: who "I", "me", "my" and "we" refer to in a memory',
} as const;

export type Mention = {
  name: string;
  type: MemoType | undefined;
  aliases: string[];
  span: [number, number];
  proper: boolean;
  user?: boolean;
};

type Recent = { mention: Mention; subject: boolean };

export class MemoryMentions {
  private readonly entities = new Map<string, ExtractedEntity>();
  private readonly recent: Recent[] = [];
  /**
   * Types inferred from relations for names the word lists do not know, so one name keeps one type.
   */
  private readonly inferred = new Map<string, MemoType>();

  constructor(private readonly content: string) {}

  /** The mentions a phrase stands for (a pronoun may resolve to none, or to a list for "they"). */
  resolve(np: NounPhrase): Mention[] {
    const span: [number, number] = [np.start, np.end];
    if (np.pronoun) {
      if (USER_PRONOUNS.has(np.pronoun))
        return [
          { name: USER_ENTITY.name, type: "PERSON", aliases: [], span, proper: true, user: true },
        ];
      if (PERSON_PRONOUNS.has(np.pronoun))
        return this.latest((m) => m.type === "PERSON" && !m.user);
      if (THING_PRONOUNS.has(np.pronoun))
        return this.latest((m) => m.type !== "PERSON" && m.type !== "ROLE" && !m.user);
      if (PLURAL_PRONOUNS.has(np.pronoun))
        return this.latest((m) => !m.user && m.type !== "ROLE", true);
      return [];
    }
    if (isGeneric(np)) return [];
    const named = typeOf(np, this.content);
    if (normalizeName(named.name) === "") return [];
    const mention: Mention = {
      name: named.name,
      type: named.type ?? this.inferred.get(named.name.toLowerCase()),
      aliases: named.aliases,
      span,
      proper: named.proper,
    };
    if (mention.type === "PERSON" && !mention.name.includes(" "))
      return [this.expandFirstName(mention)];
    return [mention];
  }

  /** "Jane" after "Jane O'Neil" in the same memory is the same person. */
  private expandFirstName(mention: Mention): Mention {
    const full = [...this.entities.values()].find(
      (e) =>
        e.type === "PERSON" && e.name.split(" ")[0] === mention.name && e.name !== mention.name,
    );
    return full ? { ...mention, name: full.name } : mention;
  }

  private latest(fits: (m: Mention) => boolean, group = false): Mention[] {
    const pick = (subjects: boolean) => {
      for (let k = this.recent.length - 1; k >= 0; k--) {
        const r = this.recent[k]!;
        if ((subjects && !r.subject) || !fits(r.mention)) continue;
        if (!group) return [r.mention];
        const together = [r.mention];
        for (
          let j = k - 1;
          j >= 0 &&
          this.recent[j]!.subject &&
          this.recent[j]!.mention.span[0] < r.mention.span[0] &&
          r.mention.span[0] - this.recent[j]!.mention.span[1] < 8;
          j--
        )
          together.push(this.recent[j]!.mention);
        return together;
      }
      return null;
    };
    return pick(true) ?? pick(false) ?? [];
  }

  /** Records a mention with its final type; returns the entity's ref. */
  register(mention: Mention, type: MemoType, subject: boolean): string {
    if (mention.type === undefined) this.inferred.set(mention.name.toLowerCase(), type);
    const typed = { ...mention, type };
    this.recent.push({ mention: typed, subject });
    const key = `${type}\u0000${normalizeName(mention.name)}`;
    const existing = this.entities.get(key);
    if (existing) {
      for (const alias of mention.aliases)
        if (!existing.aliases?.includes(alias))
          existing.aliases = [...(existing.aliases ?? []), alias];
      return existing.ref;
    }
    const entity: ExtractedEntity = {
      ref: `e${this.entities.size + 1}`,
      name: mention.name,
      type,
      span: mention.user ? undefined : mention.span,
    };
    if (mention.aliases.length > 0) entity.aliases = [...mention.aliases];
    if (mention.user) entity.description = USER_ENTITY.description;
    this.entities.set(key, entity);
    return entity.ref;
  }

  /** The inferred type of an unknown proper name seen earlier in this memory, if any. */
  typeOfName(name: string): MemoType | undefined {
    return this.inferred.get(name.toLowerCase());
  }

  list(): ExtractedEntity[] {
    return [...this.entities.values()];
  }
}
