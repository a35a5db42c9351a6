// Word lists the rules type entities with (wink's lite model has no PERSON / ORG / PLACE
// recogniser): first names, places, organisations, software, role and event nouns, generic heads,
// hedges. Small on purpose: context rules (the object of "lives in" is a place) cover what the
// lists do not.
const words = (text: string) =>
  new Set(
    text
      .trim()
      .split(/\s+/)
      .map((w) => w.toLowerCase().replaceAll("_", " ")),
  );

export const FIRST_NAMES = words(`
aaron abigail adam adrian ahmed aisha alan albert alex alexander alexandra alice alicia alan ali amanda amelia amir amy ana
andrea andreas andrew andy angela anna anne anton antonio arjun arthur ava barbara ben benjamin bernard beth bill bob bobby
brian bruno carl carla carlos carmen carol caroline catherine charles charlie charlotte chen chloe chris christian christina
christine christopher claire clara daniel danielle dave david deborah dennis diana diego dmitri dominic donald dorothy
ed edward elena eli elizabeth ella emily emma eric erik ethan eva evelyn fatima felix fernando fiona frank franz fred
gabriel george gerald grace greg gregory hana hannah hans harry heather helen henry hiroshi hugo ian igor ingrid isaac
isabel isabella ivan jack jacob james jamie jan jane janet jason javier jean jeff jennifer jessica jim joan joe john
jonathan jorge jose joseph josh juan julia julian julie karen kate katie keith ken kenji kevin kim laura lauren lea leo
leon liam linda lisa lucas lucia luis luke maria mariana marie mark martin mary matt matthew max mei mia michael michelle
miguel mike mohammed nadia naomi natalie nathan nicholas nick nicole nina noah nora oliver olivia omar oscar pablo pat
patricia patrick paul paula pedro peter philip priya rachel rafael rahul raj ravi rebecca richard rita rob robert roberto
ron rosa ruth ryan sam samantha samuel sandra sara sarah scott sean sebastian sergei sofia sophia sophie stefan stephanie
steve steven sue susan tanya thomas tim timothy tom tony tyler uma victor victoria vincent walter wei william yuki yusuf zoe
dana erin jordan morgan riley taylor casey quinn ana lena marta olga pierre sven lars nils ole astrid karl greta giulia
marco luca matteo francesca sanjay anil deepak neha pooja vikram arun lakshmi yan li ming xin ling kwame ade chidi amara
`);

export const HONORIFICS = words("dr dr. mr mr. mrs mrs. ms ms. miss prof prof. sir dame mx mx.");

export const PLACES = words(`
afghanistan argentina australia austria belgium brazil bulgaria canada chile china colombia croatia cuba czechia denmark
egypt estonia ethiopia finland france germany ghana greece hungary iceland india indonesia iran iraq ireland israel italy
japan kenya korea latvia lithuania luxembourg malaysia mexico morocco netherlands holland nigeria norway pakistan peru
philippines poland portugal romania russia scotland serbia singapore slovakia slovenia spain sweden switzerland taiwan
thailand turkey ukraine uruguay vietnam wales england britain uk usa america europe asia africa antarctica oceania
amsterdam athens atlanta austin bangalore bangkok barcelona beijing belfast berlin bern bogota boston brisbane brussels
bucharest budapest buenos_aires cairo calgary cape_town chicago copenhagen dallas delhi denver dubai dublin edinburgh
frankfurt geneva glasgow hamburg helsinki hong_kong houston istanbul jakarta johannesburg kyiv kiev kyoto lagos lima
lisbon london los_angeles lyon madrid manchester marseille melbourne mexico_city miami milan montreal moscow mumbai munich
nairobi naples new_york oakland osaka oslo ottawa paris perth philadelphia phoenix portland prague reykjavik riga rome
rotterdam san_diego san_francisco san_jose santiago sao_paulo seattle seoul shanghai shenzhen stockholm stuttgart sydney
taipei tallinn tel_aviv tokyo toronto utrecht valencia vancouver vienna vilnius warsaw washington wellington zurich
cologne dresden leipzig bremen hanover nuremberg bordeaux toulouse nice lille porto seville bilbao turin florence venice
bologna krakow gdansk wroclaw brno graz salzburg basel lausanne antwerp ghent rotterdam eindhoven aarhus gothenburg bergen
california texas florida oregon nevada arizona colorado georgia virginia massachusetts ohio michigan illinois bavaria
ontario quebec brooklyn manhattan queens silicon_valley bay_area
`);

export const PLACE_SUFFIXES = words(
  "city street st avenue ave road rd county island islands valley mountains lake river bay beach park square district province state",
);

export const ORG_SUFFIXES = words(
  "inc inc. corp corp. corporation ltd ltd. llc gmbh ag sa plc co co. company group foundation university institute bank labs lab systems technologies solutions ventures partners capital holdings agency studio studios consulting",
);

export const KNOWN_ORGS = words(`
google microsoft amazon apple meta facebook netflix ibm oracle intel nvidia amd stripe shopify openai anthropic salesforce
uber airbnb spotify twitter linkedin tesla samsung sony adobe atlassian cloudflare vercel netlify databricks snowflake
mozilla canonical accenture deloitte mckinsey nasa cern mit stanford harvard oxford cambridge acme initech globex
hooli umbrella dropbox zoom paypal ebay siemens bosch sap spacex deepmind huggingface mistral cohere twilio datadog
hashicorp elastic mongodb gitlab jetbrains red_hat digitalocean heroku fastly akamai booking zalando klarna revolut n26
`);

export const TEAM_HEADS = words(
  "team teams squad group department dept division org guild chapter committee board crew unit office",
);

export const KNOWN_TOOLS = words(`
postgres postgresql mysql mariadb sqlite redis valkey memcached kafka rabbitmq nats mongodb cassandra dynamodb
elasticsearch opensearch clickhouse bigquery snowflake duckdb pgvector pinecone qdrant weaviate milvus chroma neo4j
docker podman kubernetes k8s helm terraform ansible pulumi nomad consul vault nginx caddy apache haproxy envoy istio
react vue angular svelte nextjs next.js node.js node nodejs bun deno express fastify django flask fastapi rails spring
laravel python java javascript typescript golang rust ruby php kotlin swift scala elixir erlang haskell clojure perl
c++ c# dotnet .net lua r julia zig bash zsh fish powershell
vim neovim emacs vscode vs_code intellij pycharm webstorm xcode eclipse sublime cursor zed nano
git github gitlab bitbucket jira confluence linear notion slack teams discord zoom figma trello asana obsidian
linux ubuntu debian fedora centos alpine arch macos windows ios android freebsd
aws s3 ec2 lambda gcp azure cloudflare heroku vercel netlify fly.io render supabase firebase
grafana prometheus loki datadog sentry pagerduty opentelemetry jaeger kibana splunk new_relic
jenkins circleci travis github_actions buildkite argo argocd airflow dagster spark hadoop flink dbt
pytorch tensorflow jax keras numpy pandas scikit-learn huggingface langchain llamaindex ollama chatgpt claude gpt-4 copilot
webpack vite esbuild rollup babel eslint prettier jest vitest mocha pytest playwright cypress selenium storybook
graphql grpc openapi swagger postman curl homebrew npm yarn pnpm pip poetry cargo maven gradle bazel make cmake
wordpress stripe twilio sendgrid mailgun auth0 okta keycloak elasticsearch logstash fluentd celery sidekiq bullmq
excel word powerpoint outlook gmail chrome firefox safari
`);

/** Common-noun heads that name software: "the billing service", "our deploy script". */
export const TOOL_HEADS = words(
  "service services api apis app application library lib framework database db server cluster tool cli sdk script pipeline queue bot plugin extension package repo repository module component endpoint microservice backend frontend website site dashboard editor ide compiler runtime container image database engine orm cache",
);

export const ROLE_NOUNS = words(`
cto ceo cfo coo cio cpo ciso vp president director manager engineer developer programmer designer architect lead head
founder cofounder co-founder owner maintainer intern analyst scientist researcher consultant admin administrator sre devops
on-call recruiter teacher professor doctor nurse lawyer accountant student advisor mentor contractor freelancer pm em tpm
qa tester chair chairman chairwoman officer principal partner captain coach secretary treasurer editor-in-chief reviewer
`);

export const EVENT_HEADS = words(`
meeting standup stand-up retro retrospective demo release launch outage incident conference summit offsite migration
deployment interview workshop sprint hackathon wedding trip vacation holiday party webinar kickoff onboarding
presentation talk keynote postmortem post-mortem review
`);

export const GENERIC_HEADS = words(`
thing things way ways time times lot lots bit kind sort stuff something anything everything nothing one ones someone
somebody anyone everyone everybody nobody fact idea point matter case part use reason place day days week weeks month
months year years today yesterday tomorrow while moment people person yes no ok okay lot
`);

export const HEDGES = words(
  "might may could would should probably perhaps maybe possibly likely apparently reportedly supposedly seemingly guess think believe suspect seems seem",
);

/** Subject pronouns that mean the agent's user. */
export const USER_PRONOUNS = words("i me my mine myself we us our ours ourselves");
export const PERSON_PRONOUNS = words("he him his himself she her hers herself");
export const THING_PRONOUNS = words("it its itself");
export const PLURAL_PRONOUNS = words("they them their theirs themselves");
