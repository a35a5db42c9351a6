// The labelled extraction set: 114 sentences in seven categories, each with the triples a careful
// annotator expects under the built-in ontology (src/domain/graph/relations.ts), written from the
// sentence, not from the extractor's output. "S -REL-> O" is a fact, "S -!REL-> O" a fact asserted
// as ended; " @YYYY-MM-DD" is its valid_at and " ~YYYY-MM-DD" its invalid_at when the sentence
// dates it (months and years resolve to their first day). First person is the entity "user".
// Relative dates resolve against EXTRACTION_REFERENCE_TIME.
export type LabelledSentence = { category: Category; text: string; gold: string[] };
export type Category =
  | "people"
  | "organisations"
  | "places"
  | "tools"
  | "code"
  | "dated events"
  | "no fact";

export const EXTRACTION_REFERENCE_TIME = new Date("2026-11-23T10:00:00Z");

const set = (category: Category, rows: Array<[string, ...string[]]>): LabelledSentence[] =>
  rows.map(([text, ...gold]) => ({ category, text, gold }));

export const EXTRACTION_SET: LabelledSentence[] = [
  ...set("people", [
    ["Alice works at Acme.", "Alice -WORKS_AT-> Acme"],
    ["Bob is Alice's manager.", "Alice -REPORTS_TO-> Bob"],
    ["Carol reports to Dave.", "Carol -REPORTS_TO-> Dave"],
    ["Erin knows Frank from university.", "Erin -KNOWS-> Frank"],
    ["Grace is married to Henry.", "Grace -MARRIED_TO-> Henry"],
    ["Ivan was born in Zagreb.", "Ivan -BORN_IN-> Zagreb"],
    ["Julia is from Lisbon.", "Julia -COMES_FROM-> Lisbon"],
    ["Kofi studied at MIT.", "Kofi -STUDIED_AT-> MIT"],
    ["Lena manages the data team.", "Lena -MANAGES-> data team"],
    ["Marco is the CTO of Globex.", "Marco -HAS_ROLE-> CTO", "Marco -WORKS_AT-> Globex"],
    ["Nina works as a nurse.", "Nina -HAS_ROLE-> nurse"],
    [
      "Omar lives in Cairo with his wife Layla.",
      "Omar -LIVES_IN-> Cairo",
      "Omar -MARRIED_TO-> Layla",
    ],
    ["Priya prefers dark roast coffee.", "Priya -PREFERS-> dark roast coffee"],
    ["Quentin hates long meetings.", "Quentin -DISLIKES-> long meetings"],
    ["Rosa and Sam both work at Initech.", "Rosa -WORKS_AT-> Initech", "Sam -WORKS_AT-> Initech"],
    ["Tom met Ursula at the conference.", "Tom -KNOWS-> Ursula"],
    ["Victor is a friend of Wendy.", "Victor -KNOWS-> Wendy"],
    ["Xavier's manager is Yolanda.", "Xavier -REPORTS_TO-> Yolanda"],
    ["Zoe is responsible for the release process.", "Zoe -OWNS-> release process"],
    ["Aiden left Hooli.", "Aiden -!WORKS_AT-> Hooli"],
    ["Beatrice teaches at Oxford.", "Beatrice -WORKS_AT-> Oxford"],
    ["Chen Wei joined Tencent.", "Chen Wei -WORKS_AT-> Tencent"],
    ["Diego supervises Elena.", "Diego -MANAGES-> Elena"],
    [
      "Fatima is a software engineer at Spotify.",
      "Fatima -HAS_ROLE-> software engineer",
      "Fatima -WORKS_AT-> Spotify",
    ],
  ]),
  ...set("organisations", [
    ["Acme is headquartered in Berlin.", "Acme -LOCATED_IN-> Berlin"],
    ["Globex was founded by Hank Scorpio.", "Globex -CREATED_BY-> Hank Scorpio"],
    ["Initech employs Peter Gibbons.", "Peter Gibbons -WORKS_AT-> Initech"],
    ["The payments team is part of Stripe.", "payments team -PART_OF-> Stripe"],
    ["Hooli owns Pied Piper.", "Hooli -OWNS-> Pied Piper"],
    [
      "Umbrella Corporation is based in Raccoon City.",
      "Umbrella Corporation -LOCATED_IN-> Raccoon City",
    ],
    ["Microsoft acquired GitHub.", "Microsoft -OWNS-> GitHub"],
    [
      "The platform team belongs to the infrastructure group.",
      "platform team -PART_OF-> infrastructure group",
    ],
    ["Wayne Enterprises is run by Bruce Wayne.", "Bruce Wayne -MANAGES-> Wayne Enterprises"],
    ["Cyberdyne hired Miles Dyson.", "Miles Dyson -WORKS_AT-> Cyberdyne"],
    ["Soylent uses Salesforce for its sales pipeline.", "Soylent -USES-> Salesforce"],
    ["The research lab is located in Zurich.", "research lab -LOCATED_IN-> Zurich"],
    [
      "Vandelay Industries was started by Art Vandelay.",
      "Vandelay Industries -CREATED_BY-> Art Vandelay",
    ],
    [
      "The design team includes Mia and Noah.",
      "design team -HAS_PART-> Mia",
      "design team -HAS_PART-> Noah",
    ],
    ["Oscorp is a biotech company.", "Oscorp -IS_A-> biotech company"],
    ["Stark Industries has an office in Malibu.", "Stark Industries -LOCATED_IN-> Malibu"],
  ]),
  ...set("places", [
    ["Alice moved to Berlin.", "Alice -LIVES_IN-> Berlin"],
    ["Paris is in France.", "Paris -LOCATED_IN-> France"],
    ["Bob lives in Toronto.", "Bob -LIVES_IN-> Toronto"],
    ["Carla relocated to Madrid last year.", "Carla -LIVES_IN-> Madrid"],
    ["The Louvre is located in Paris.", "Louvre -LOCATED_IN-> Paris"],
    ["Dmitri moved away from Moscow.", "Dmitri -!LIVES_IN-> Moscow"],
    ["Our data center sits in Frankfurt.", "data center -LOCATED_IN-> Frankfurt"],
    ["Eva resides in Vienna.", "Eva -LIVES_IN-> Vienna"],
    ["Kyoto is a city in Japan.", "Kyoto -IS_A-> city", "Kyoto -LOCATED_IN-> Japan"],
    ["Felix settled in Cape Town after university.", "Felix -LIVES_IN-> Cape Town"],
    ["Gina comes from Naples.", "Gina -COMES_FROM-> Naples"],
    ["The conference takes place in Lisbon.", "conference -LOCATED_IN-> Lisbon"],
    ["I live in Amsterdam.", "user -LIVES_IN-> Amsterdam"],
    ["Hugo moved from Lyon to Marseille.", "Hugo -!LIVES_IN-> Lyon", "Hugo -LIVES_IN-> Marseille"],
    ["The warehouse is in Rotterdam.", "warehouse -LOCATED_IN-> Rotterdam"],
    ["Isla grew up in Edinburgh.", "Isla -COMES_FROM-> Edinburgh"],
  ]),
  ...set("tools", [
    ["Dave uses Redis for caching.", "Dave -USES-> Redis"],
    [
      "The team switched from MySQL to PostgreSQL.",
      "team -!USES-> MySQL",
      "team -USES-> PostgreSQL",
    ],
    ["Alice prefers Vim over Emacs.", "Alice -PREFERS-> Vim"],
    ["Our API runs on Kubernetes.", "API -RUNS_ON-> Kubernetes"],
    ["The frontend is written in TypeScript.", "frontend -USES-> TypeScript"],
    ["Grafana depends on Prometheus for metrics.", "Grafana -DEPENDS_ON-> Prometheus"],
    [
      "Kafka is a distributed event streaming platform.",
      "Kafka -IS_A-> distributed event streaming platform",
    ],
    ["We deploy the service to AWS.", "service -RUNS_ON-> AWS"],
    ["Maya installed Docker on her laptop.", "Maya -USES-> Docker"],
    ["Terraform manages our infrastructure.", "Terraform -MANAGES-> infrastructure"],
    ["Liam dropped Jenkins last month.", "Liam -!USES-> Jenkins"],
    ["The billing service relies on Stripe.", "billing service -DEPENDS_ON-> Stripe"],
    ["Sara is a fan of Neovim.", "Sara -PREFERS-> Neovim"],
    ["The mobile app is built with Flutter.", "mobile app -USES-> Flutter"],
    ["Elasticsearch is hosted on Elastic Cloud.", "Elasticsearch -RUNS_ON-> Elastic Cloud"],
    ["Noah uses Figma and Notion every day.", "Noah -USES-> Figma", "Noah -USES-> Notion"],
    ["I prefer tabs over spaces.", "user -PREFERS-> tabs"],
    ["Ben migrated to Aurora.", "Ben -USES-> Aurora"],
    ["Redis is an in-memory database.", "Redis -IS_A-> in-memory database"],
  ]),
  ...set("code", [
    ["The parser is defined in src/parse.ts.", "parser -DEFINED_IN-> src/parse.ts"],
    ["parseConfig calls loadEnv.", "parseConfig -CALLS-> loadEnv"],
    [
      "The retry logic in src/queue/retry.ts calls backoffDelay.",
      "retry logic -LOCATED_IN-> src/queue/retry.ts",
      "retry logic -CALLS-> backoffDelay",
    ],
    ["The deploy script lives in ops/deploy.sh.", "deploy script -LOCATED_IN-> ops/deploy.sh"],
    ["handleRequest invokes the auth middleware.", "handleRequest -CALLS-> auth middleware"],
    ["The worker module imports bullmq.", "worker module -DEPENDS_ON-> bullmq"],
    [
      "UserService is implemented in src/users/service.ts.",
      "UserService -DEFINED_IN-> src/users/service.ts",
    ],
    ["The parser was written by Maria.", "parser -CREATED_BY-> Maria"],
    ["config.yaml is stored in the deploy folder.", "config.yaml -LOCATED_IN-> deploy folder"],
    ["The CLI depends on commander.", "CLI -DEPENDS_ON-> commander"],
    ["computeHash is declared in lib/hash.rs.", "computeHash -DEFINED_IN-> lib/hash.rs"],
    ["Kenji maintains the payments SDK.", "Kenji -WORKS_ON-> payments SDK"],
    ["The scheduler calls runJob every minute.", "scheduler -CALLS-> runJob"],
    ["Lucia contributes to the Linux kernel.", "Lucia -WORKS_ON-> Linux kernel"],
    [
      "The migration script is in scripts/migrate.ts.",
      "migration script -LOCATED_IN-> scripts/migrate.ts",
    ],
    ["The tokenizer was created by Omar.", "tokenizer -CREATED_BY-> Omar"],
    ["src/app.ts imports src/routes.ts.", "src/app.ts -DEPENDS_ON-> src/routes.ts"],
    [
      "validateInput is defined in src/validate.ts and calls isEmail.",
      "validateInput -DEFINED_IN-> src/validate.ts",
      "validateInput -CALLS-> isEmail",
    ],
  ]),
  ...set("dated events", [
    ["In 2019 Alice moved to Paris.", "Alice -LIVES_IN-> Paris @2019-01-01"],
    ["Alice moved to Berlin in March 2023.", "Alice -LIVES_IN-> Berlin @2023-03-01"],
    ["Bob joined Acme in January 2021.", "Bob -WORKS_AT-> Acme @2021-01-01"],
    ["Carol left Initech in June 2022.", "Carol -!WORKS_AT-> Initech ~2022-06-01"],
    ["On 12 May 2024, Dana started working at Globex.", "Dana -WORKS_AT-> Globex @2024-05-12"],
    ["Eli married Fiona in 2015.", "Eli -MARRIED_TO-> Fiona @2015-01-01"],
    ["Gabe attended PyCon in April 2023.", "Gabe -ATTENDED-> PyCon @2023-04-01"],
    ["Since March 2020 Hana has worked for Sony.", "Hana -WORKS_AT-> Sony @2020-03-01"],
    ["Ivo was born in Split in 1990.", "Ivo -BORN_IN-> Split @1990-01-01"],
    ["Jana moved to Prague on 3 September 2021.", "Jana -LIVES_IN-> Prague @2021-09-03"],
    ["Karl graduated from ETH Zurich in 2012.", "Karl -STUDIED_AT-> ETH Zurich @2012-01-01"],
    ["In February 2025 the team migrated to Postgres 16.", "team -USES-> Postgres 16 @2025-02-01"],
    ["Leo worked at IBM until 2018.", "Leo -WORKS_AT-> IBM ~2018-01-01"],
    ["Mila spoke at KubeCon on 20 March 2024.", "Mila -ATTENDED-> KubeCon @2024-03-20"],
    ["Nate quit Twitter in November 2022.", "Nate -!WORKS_AT-> Twitter ~2022-11-01"],
    ["Olga has lived in Riga since 2016.", "Olga -LIVES_IN-> Riga @2016-01-01"],
    [
      "Last week I switched from MySQL to PostgreSQL.",
      "user -!USES-> MySQL ~2026-11-16",
      "user -USES-> PostgreSQL @2026-11-16",
    ],
  ]),
  ...set("no fact", [
    ["Thanks, that sounds great!"],
    ["Can you remind me tomorrow?"],
    ["That was a long day."],
    ["Please summarise the meeting notes."],
    ["Hmm, I am not sure about that."],
    ["Let's talk about it later."],
    ["Good morning!"],
    ["Sounds good to me."],
  ]),
];
