// A seeded conversational retrieval set (issue 13 item 6): multi-session chat logs with dated
// sessions, and questions whose answers sit in earlier turns, each with the ids of the turns that
// hold the evidence. Four categories: single-hop (the question shares words with the fact),
// paraphrase (it shares almost none), temporal (a topic recurs every month; only the date in the
// question picks the right turn) and multi-hop (two facts said in different sessions must both be
// found). Filler turns reuse the facts' vocabulary, and other people's look-alike facts are mixed
// in, so keyword overlap alone does not win.
import { rng } from "./corpus";

export type Category = "single-hop" | "paraphrase" | "temporal" | "multi-hop";
export const CATEGORIES: readonly Category[] = [
  "single-hop",
  "paraphrase",
  "temporal",
  "multi-hop",
];

export type Turn = {
  id: string;
  persona: string;
  session: number;
  index: number;
  role: "user" | "assistant";
  content: string;
  occurredAt: string;
};
export type Question = {
  persona: string;
  category: Category;
  question: string;
  evidence: string[];
};
export type DialogueSet = { personas: string[]; turns: Turn[]; questions: Question[] };

type Random = () => number;
const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
function shuffle<T>(r: Random, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

type Fact = { fact: string; keyword: string; paraphrase: string; lookalike: string };
type FactTemplate = (r: Random) => Fact;

const FIRST_NAMES = [
  "Ana",
  "Ben",
  "Chidi",
  "Dana",
  "Emil",
  "Farah",
  "Goran",
  "Hiro",
  "Ines",
  "Jonah",
  "Kemal",
  "Lena",
  "Milo",
  "Nadia",
  "Oskar",
  "Pia",
  "Quinn",
  "Rosa",
  "Sami",
  "Tara",
];

const FACTS: FactTemplate[] = [
  (r) => {
    const v = pick(r, ["Biscuit", "Pepper", "Juniper", "Waffles", "Mochi"]);
    return {
      fact: `We adopted a beagle puppy and named her ${v}.`,
      keyword: "What name did we give the beagle puppy we adopted?",
      paraphrase: "What do we call our new dog?",
      lookalike: `My cousin's beagle is called ${pick(r, ["Rex", "Toby", "Luna"])}, he is so loud.`,
    };
  },
  (r) => {
    const v = pick(r, ["cello", "trumpet", "banjo", "harp", "clarinet"]);
    return {
      fact: `I started taking ${v} lessons on Tuesday evenings.`,
      keyword: "Which lessons did I start taking on Tuesday evenings?",
      paraphrase: "Which musical instrument am I learning to play?",
      lookalike: `The kids next door take piano lessons and practise every morning.`,
    };
  },
  (r) => {
    const v = pick(r, ["hazelnuts", "shrimp", "sesame", "kiwi", "mustard"]);
    return {
      fact: `The doctor confirmed that I am allergic to ${v}.`,
      keyword: "What did the doctor confirm I am allergic to?",
      paraphrase: "Which food makes me sick so I must avoid it?",
      lookalike: `My colleague is allergic to cats, so the office is pet-free.`,
    };
  },
  (r) => {
    const v = pick(r, ["Subaru Outback", "Honda Civic", "Mazda 3", "Skoda Octavia", "Volvo V60"]);
    return {
      fact: `I finally bought a used ${v} with low mileage.`,
      keyword: "Which used car with low mileage did I buy?",
      paraphrase: "What vehicle did I purchase recently?",
      lookalike: `My neighbour keeps talking about buying an electric scooter.`,
    };
  },
  (r) => {
    const v = pick(r, ["Middlemarch", "Dune", "The Overstory", "Piranesi", "Stoner"]);
    return {
      fact: `I am halfway through ${v} and loving every chapter.`,
      keyword: "Which book am I halfway through?",
      paraphrase: "What novel have I been enjoying lately?",
      lookalike: `Someone at the book club said they could not finish Ulysses.`,
    };
  },
  (r) => {
    const v = pick(r, ["Portuguese", "Japanese", "Finnish", "Turkish", "Polish"]);
    return {
      fact: `My company is sending me to a ${v} course next quarter.`,
      keyword: "Which language course is my company sending me to?",
      paraphrase: "What tongue will my employer have me study?",
      lookalike: `A friend of mine is learning sign language in the evenings.`,
    };
  },
  (r) => {
    const v = pick(r, ["GitHub Actions", "Buildkite", "CircleCI", "GitLab CI", "Drone"]);
    return {
      fact: `At work we switched our CI from Jenkins to ${v}.`,
      keyword: "What did we switch our CI to from Jenkins?",
      paraphrase: "Which build automation system does my team rely on now?",
      lookalike: `The platform team is still arguing about their deployment tooling.`,
    };
  },
  (r) => {
    const v = pick(r, ["flat white", "cortado", "cold brew", "chai latte", "macchiato"]);
    return {
      fact: `My usual coffee order is a ${v} with oat milk.`,
      keyword: "What is my usual coffee order?",
      paraphrase: "What do I normally ask for at the café?",
      lookalike: `My sister drinks her coffee black, no sugar.`,
    };
  },
  (r) => {
    const v = pick(r, ["fencing", "bouldering", "judo", "rowing", "badminton"]);
    return {
      fact: `I signed up for ${v} classes at the community centre.`,
      keyword: "What classes did I sign up for at the community centre?",
      paraphrase: "Which sport have I enrolled in?",
      lookalike: `The community centre is closed for renovation in August.`,
    };
  },
  (r) => {
    const v = pick(r, ["March 3rd", "July 19th", "October 8th", "December 12th", "May 27th"]);
    return {
      fact: `My mom's birthday is on ${v} and I always forget it.`,
      keyword: "When is my mom's birthday?",
      paraphrase: "On what date should I call my mother to celebrate?",
      lookalike: `My boss's birthday party was last Friday and it was awkward.`,
    };
  },
  (r) => {
    const v = pick(r, [
      "a paramedic",
      "a locksmith",
      "a translator",
      "a beekeeper",
      "an architect",
    ]);
    const n = pick(r, FIRST_NAMES);
    return {
      fact: `Our new neighbour ${n} works as ${v}.`,
      keyword: `What does our new neighbour ${n} work as?`,
      paraphrase: "What does the person who moved in next door do for a living?",
      lookalike: `The old neighbours moved to the coast last spring.`,
    };
  },
  (r) => {
    const v = pick(r, ["lavender", "sunflowers", "raspberry canes", "tomatoes", "hydrangeas"]);
    return {
      fact: `I planted ${v} along the back fence.`,
      keyword: "What did I plant along the back fence?",
      paraphrase: "What is growing by the rear of the garden?",
      lookalike: `The front lawn needs mowing again, it grows so fast.`,
    };
  },
  (r) => {
    const v = pick(r, ["PostgreSQL", "CockroachDB", "DynamoDB", "ClickHouse", "MongoDB"]);
    return {
      fact: `I am leading the migration of our billing system to ${v}.`,
      keyword: "What are we migrating the billing system to?",
      paraphrase: "Which datastore is the invoicing platform moving onto?",
      lookalike: `Someone else owns the search cluster upgrade this year.`,
    };
  },
  (r) => {
    const v = pick(r, [
      "ThinkPad X1",
      "MacBook Air",
      "Framework 13",
      "Dell XPS 13",
      "Surface Laptop",
    ]);
    return {
      fact: `My laptop is a ${v} and its battery is dying.`,
      keyword: "Which laptop do I have with the dying battery?",
      paraphrase: "What computer do I own?",
      lookalike: `The office printer jams every time somebody prints double-sided.`,
    };
  },
  (r) => {
    const v = pick(r, ["payments", "mobile", "data platform", "security", "growth"]);
    const n = pick(r, FIRST_NAMES);
    return {
      fact: `My manager ${n} is moving to the ${v} team.`,
      keyword: `Which team is my manager ${n} moving to?`,
      paraphrase: "Which group is my boss joining?",
      lookalike: `An intern from another team asked me about code reviews.`,
    };
  },
  (r) => {
    const v = pick(r, ["cardamom", "smoked paprika", "nutmeg", "saffron", "fennel seed"]);
    return {
      fact: `My grandmother's stew recipe uses a pinch of ${v}.`,
      keyword: "What spice does my grandmother's stew recipe use?",
      paraphrase: "What is the secret ingredient in grandma's dish?",
      lookalike: `The restaurant's stew last week was far too salty.`,
    };
  },
  (r) => {
    const v = pick(r, [
      "animal shelter",
      "food bank",
      "public library",
      "repair café",
      "city farm",
    ]);
    return {
      fact: `On weekends I volunteer at the ${v}.`,
      keyword: "Where do I volunteer on weekends?",
      paraphrase: "Where do I help out on Saturdays and Sundays?",
      lookalike: `My brother spends his weekends fixing old motorbikes.`,
    };
  },
  (r) => {
    const v = pick(r, ["Severance", "The Bear", "Slow Horses", "Dark", "Shogun"]);
    return {
      fact: `We binge-watched ${v} over the holidays.`,
      keyword: "What did we binge-watch over the holidays?",
      paraphrase: "Which series did we stream during the break?",
      lookalike: `The holidays at my in-laws were mostly board games.`,
    };
  },
  (r) => {
    const v = 15 + Math.floor(r() * 30);
    return {
      fact: `I bike to work along the river path and it takes ${v} minutes.`,
      keyword: "How long does it take me to bike to work along the river path?",
      paraphrase: "How many minutes is my cycling commute?",
      lookalike: `The bus to work was late three times this week.`,
    };
  },
  (r) => {
    const v = pick(r, ["Lisbon", "Kyoto", "Reykjavik", "Cape Town", "Montreal"]);
    return {
      fact: `We booked our honeymoon in ${v} for next spring.`,
      keyword: "Where did we book our honeymoon?",
      paraphrase: "Where are the newlyweds travelling after the wedding?",
      lookalike: `Friends of ours went to Rome last spring and hated the crowds.`,
    };
  },
];

// Recurring topics: mentioned once in many monthly sessions, each time with another value.
const RECURRING = [
  {
    values: [
      "Mount Tamalpais",
      "Ben Nevis",
      "Snowdon",
      "Mount Rainier",
      "Half Dome",
      "Table Mountain",
      "Pico Duarte",
      "Mount Olympus",
      "Zugspitze",
      "Mount Fuji",
      "Triglav",
      "Mont Ventoux",
      "Aoraki",
      "Kilimanjaro",
    ],
    say: (v: string) => `Last weekend we went hiking up ${v}, the view from the top was amazing.`,
    ask: (when: string) => `Where did we go hiking in ${when}?`,
  },
  {
    values: [
      "Osteria Nonna",
      "Blue Lotus",
      "El Fogón",
      "Sakura House",
      "The Copper Pot",
      "Le Petit Four",
      "Taj Palace",
      "Casa Lola",
      "Noodle Bar 88",
      "Smokehouse Joe",
      "Green Olive",
      "Pho Saigon",
      "Rumi's Kitchen",
      "Fish Market",
    ],
    say: (v: string) => `Tried a new restaurant called ${v} and the food was great.`,
    ask: (when: string) => `Which new restaurant did I try in ${when}?`,
  },
];

// Two facts in different sessions; the question needs both.
const HOPS = [
  {
    relations: ["sister", "brother", "cousin", "best friend", "uncle", "roommate"],
    companies: [
      "Globex",
      "Initech",
      "Umbrella Labs",
      "Hooli",
      "Vandelay",
      "Soylent",
      "Stark Freight",
      "Wayne Foods",
      "Acme Robotics",
      "Cyberdyne",
      "Tyrell Energy",
      "Wonka Media",
    ],
    cities: [
      "Rotterdam",
      "Tampere",
      "Porto",
      "Gdansk",
      "Leipzig",
      "Bilbao",
      "Aarhus",
      "Ghent",
      "Turin",
      "Brno",
      "Graz",
      "Malmö",
    ],
  },
];

const FILLER_USER = [
  "Work was busy again today, too many meetings.",
  "Can you remind me to call the bank tomorrow?",
  "I think I need a new pair of running shoes.",
  "The weather has been grey all week.",
  "I spent the evening cleaning the kitchen.",
  "Do you have a good recipe for a quick dinner?",
  "My team shipped the release on time for once.",
  "I could not sleep well last night.",
  "Let's plan the weekend, I want something relaxing.",
  "I watched a documentary about octopuses.",
  "The train was packed this morning.",
  "I need to renew my passport soon.",
  "Our manager wants a status update by Friday.",
  "I finished the puzzle we started last month.",
  "What should I cook for the neighbours on Sunday?",
  "I'm thinking about repainting the living room.",
  "The garden needs a lot of work this year.",
  "I had lunch with an old friend from university.",
  "Remind me what we talked about regarding the budget.",
  "I want to read more books this year.",
  "The car needs new tyres before winter.",
  "Coffee with the new team was nice.",
  "My back hurts after that long drive.",
  "We might visit my parents next month.",
  "I keep forgetting birthdays, can you help?",
  "The laptop fan is very loud today.",
  "I'm trying to drink less coffee.",
  "Our holiday plans are still not fixed.",
  "The neighbour's dog barked all night.",
  "I signed the lease renewal yesterday.",
  "I'd like to learn something new this autumn.",
  "We went to a concert in the park.",
];
const FILLER_ASSISTANT = [
  "That sounds like a lot. Want me to note anything from it?",
  "Sure, I have noted that.",
  "Good to know. Anything else on your mind?",
  "Here is an idea: break it into smaller steps and start with the easiest one.",
  "I'll remember that for later.",
  "That sounds lovely!",
  "Understood. Do you want a reminder?",
  "Thanks for telling me, I'll keep it in mind.",
  "Would a short checklist help?",
  "Happy to help with that whenever you like.",
  "Got it.",
  "Let me know how it goes.",
];

const ROLES = ["user", "assistant"] as const;
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/**
 * `personas` agents, each with `sessions` monthly conversations (from January 2023) of
 * `turnsPerSession` turns. Per persona: 20 facts (half asked by keyword, half by paraphrase),
 * `temporal` date-picked questions and `hops` two-fact questions. The same seed gives the same set
 * on every machine.
 */
export function dialogueSet({
  personas = 4,
  sessions = 24,
  turnsPerSession = 24,
  temporal = 8,
  hops = 6,
  seed = 2026,
} = {}): DialogueSet {
  const r = rng(seed);
  const turns: Turn[] = [];
  const questions: Question[] = [];
  const names = Array.from({ length: personas }, (_, i) => `persona-${i + 1}`);
  for (const persona of names) {
    // Each session's user slots: which evidence line goes where (null: filler).
    const planned: { session: number; text: string; tag?: string }[] = [];
    const facts = FACTS.map((t) => t(r));
    const order = shuffle(
      r,
      facts.map((_, i) => i),
    );
    facts.forEach((f, i) => {
      const session = Math.floor(r() * sessions);
      planned.push({ session, text: f.fact, tag: `fact:${i}` });
      planned.push({ session: Math.floor(r() * sessions), text: f.lookalike });
    });
    const askedByKeyword = new Set(order.slice(0, facts.length / 2));
    facts.forEach((f, i) =>
      questions.push({
        persona,
        category: askedByKeyword.has(i) ? "single-hop" : "paraphrase",
        question: askedByKeyword.has(i) ? f.keyword : f.paraphrase,
        evidence: [`fact:${i}`],
      }),
    );

    RECURRING.forEach((topic, t) => {
      const months = shuffle(
        r,
        Array.from({ length: sessions }, (_, i) => i),
      )
        .slice(0, topic.values.length)
        .sort((a, b) => a - b);
      const values = shuffle(r, [...topic.values]);
      months.forEach((session, k) =>
        planned.push({ session, text: topic.say(values[k]!), tag: `recurring:${t}:${session}` }),
      );
      for (const session of shuffle(r, [...months]).slice(
        0,
        Math.ceil(temporal / RECURRING.length),
      )) {
        questions.push({
          persona,
          category: "temporal",
          question: topic.ask(`${MONTHS[session % 12]} ${2023 + Math.floor(session / 12)}`),
          evidence: [`recurring:${t}:${session}`],
        });
      }
    });

    const hop = HOPS[0]!;
    const relations = shuffle(r, [...hop.relations]).slice(0, hops);
    const companies = shuffle(r, [...hop.companies]);
    const cities = shuffle(r, [...hop.cities]);
    relations.forEach((relation, k) => {
      const [first, second] = [Math.floor(r() * sessions), Math.floor(r() * sessions)];
      planned.push({
        session: first,
        text: `My ${relation} ${pick(r, FIRST_NAMES)} just started a new job at ${companies[k]}.`,
        tag: `hop:${k}:a`,
      });
      planned.push({
        session: second,
        text: `Apparently ${companies[k]} has its headquarters in ${cities[k]}, right by the old harbour.`,
        tag: `hop:${k}:b`,
      });
      questions.push({
        persona,
        category: "multi-hop",
        question: `In which city is my ${relation}'s new employer headquartered?`,
        evidence: [`hop:${k}:a`, `hop:${k}:b`],
      });
    });

    const byTag = new Map<string, string>();
    for (let s = 0; s < sessions; s++) {
      const day = 3 + Math.floor(r() * 22);
      const start = Date.UTC(2023 + Math.floor(s / 12), s % 12, day, 18, 0, 0);
      const lines = planned.filter((p) => p.session === s);
      const userSlots = Math.max(turnsPerSession / 2, lines.length);
      const slots: ({ text: string; tag?: string } | null)[] = shuffle(r, [
        ...lines,
        ...Array.from({ length: userSlots - lines.length }, () => null),
      ]);
      slots.forEach((slot, k) => {
        for (const role of ROLES) {
          const index = k * 2 + (role === "user" ? 0 : 1);
          const content =
            role === "assistant" ? pick(r, FILLER_ASSISTANT) : (slot?.text ?? pick(r, FILLER_USER));
          const id = `${persona}/s${s}/t${index}`;
          if (role === "user" && slot?.tag) byTag.set(slot.tag, id);
          turns.push({
            id,
            persona,
            session: s,
            index,
            role,
            content,
            occurredAt: new Date(start + index * 60_000).toISOString(),
          });
        }
      });
    }
    for (const q of questions.filter((q) => q.persona === persona))
      q.evidence = q.evidence.map((tag) => byTag.get(tag)!);
  }
  return { personas: names, turns, questions };
}
