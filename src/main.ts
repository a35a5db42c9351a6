// The `svc` entry point: dispatches subcommands; --help/--version exit 0; a bad invocation prints
// usage and exits 2.
import { parseArgs } from "node:util";
import {
  COMMAND_HELP,
  exitWithUsage,
  isHelpFlag,
  isVersionFlag,
  USAGE,
  UsageError,
  VERSION,
} from "./cli/usage";
import { ownValue } from "./lib/own-key";

type Command = (args: string[]) => Promise<void>;

// Each command's modules load when it runs: `--help` answers without loading the app, and `svc mcp`
// listens for end of input and signals before its heavy imports.
const noArgs =
  (load: () => Promise<() => Promise<void>>): Command =>
  async (args) => {
    if (args.length > 0) throw new UsageError(`unexpected argument ${args[0]}`);
    await (await load())();
  };

const COMMANDS: Record<string, Command> = {
  serve: noArgs(async () => (await import("./cli/serve")).runServe),
  migrate: noArgs(async () => (await import("./cli/migrate")).runMigrate),
  worker: noArgs(async () => (await import("./cli/worker")).runWorker),
  beat: noArgs(async () => (await import("./cli/beat")).runBeat),
  refine: async (args) => {
    if (args[0] !== "schedule")
      throw new UsageError(`unknown refine subcommand ${args[0] ?? "(none)"}`);
    const { values } = parseArgs({
      args: args.slice(1),
      strict: true,
      allowPositionals: false,
      options: { org: { type: "string" }, off: { type: "boolean" } },
    });
    await (await import("./cli/refine-schedule")).runRefineSchedule(values);
  },
  keys: async (args) => {
    if (args[0] !== "create")
      throw new UsageError(`unknown keys subcommand ${args[0] ?? "(none)"}`);
    const { values } = parseArgs({
      args: args.slice(1),
      strict: true,
      allowPositionals: false,
      options: {
        org: { type: "string" },
        superadmin: { type: "boolean" },
        name: { type: "string" },
        scopes: { type: "string" },
      },
    });
    await (await import("./cli/keys-create")).runKeysCreate(values);
  },
  audit: async (args) => {
    if (args[0] !== "verify")
      throw new UsageError(`unknown audit subcommand ${args[0] ?? "(none)"}`);
    const { values } = parseArgs({
      args: args.slice(1),
      strict: true,
      allowPositionals: false,
      options: { org: { type: "string" } },
    });
    await (await import("./cli/audit-verify")).runAuditVerify(values);
  },
  forget: async (args) => {
    if (args[0] !== "verify")
      throw new UsageError(`unknown forget subcommand ${args[0] ?? "(none)"}`);
    const { values, positionals } = parseArgs({
      args: args.slice(1),
      strict: true,
      allowPositionals: true,
      options: { "public-key": { type: "string" } },
    });
    if (positionals.length > 1) throw new UsageError("forget verify takes one certificate file");
    await (await import("./cli/forget-verify")).runForgetVerify(positionals[0], values);
  },
  mcp: async (args) => (await import("./cli/mcp")).runMcp(args),
  export: async (args) => (await import("./cli/export")).runExport(args),
  import: async (args) => (await import("./cli/import")).runImport(args),
  help: async () => console.log(USAGE),
};

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (isHelpFlag(name)) return console.log(USAGE);
  if (isVersionFlag(name)) return console.log(VERSION);
  // `svc <command> --help` (or `svc keys create -h`): help wins over every other argument
  const help = name && rest.some(isHelpFlag) ? ownValue(COMMAND_HELP, name) : undefined;
  if (help) return console.log(help);
  const command = name ? ownValue(COMMANDS, name) : undefined;
  if (!command) exitWithUsage(name ? `unknown command ${name}` : undefined);
  try {
    await command(rest);
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    )
      exitWithUsage((error as Error).message);
    console.error(`svc: ${(error as Error).message}`);
    process.exit(1);
  }
}

await main(process.argv.slice(2));
