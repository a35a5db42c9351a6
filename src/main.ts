// The `svc` entry point: dispatches subcommands; --help/--version exit 0; a bad invocation prints usage and exits 2.
import { parseArgs } from "node:util";
import { runAuditVerify } from "./cli/audit-verify";
import { runForgetVerify } from "./cli/forget-verify";
import { runKeysCreate } from "./cli/keys-create";
import { runBeat } from "./cli/beat";
import { runMigrate } from "./cli/migrate";
import { runMcp } from "./cli/mcp";
import { runExport } from "./cli/export";
import { runImport } from "./cli/import";
import { runRefineSchedule } from "./cli/refine-schedule";
import { runServe } from "./cli/serve";
import { COMMAND_HELP, exitWithUsage, isHelpFlag, isVersionFlag, USAGE, UsageError, VERSION } from "./cli/usage";
import { runWorker } from "./cli/worker";
import { ownValue } from "./domain/own-key";

type Command = (args: string[]) => Promise<void>;

const noArgs = (run: () => Promise<void>): Command => async (args) => {
  if (args.length > 0) throw new UsageError(`unexpected argument ${args[0]}`);
  await run();
};

const COMMANDS: Record<string, Command> = {
  serve: noArgs(runServe),
  migrate: noArgs(runMigrate),
  worker: noArgs(runWorker),
  beat: noArgs(runBeat),
  refine: async (args) => {
    if (args[0] !== "schedule") throw new UsageError(`unknown refine subcommand ${args[0] ?? "(none)"}`);
    const { values } = parseArgs({ args: args.slice(1), strict: true, allowPositionals: false, options: { org: { type: "string" }, off: { type: "boolean" } } });
    await runRefineSchedule(values);
  },
  keys: async (args) => {
    if (args[0] !== "create") throw new UsageError(`unknown keys subcommand ${args[0] ?? "(none)"}`);
    const { values } = parseArgs({ args: args.slice(1), strict: true, allowPositionals: false, options: { org: { type: "string" }, superadmin: { type: "boolean" }, name: { type: "string" }, scopes: { type: "string" } } });
    await runKeysCreate(values);
  },
  audit: async (args) => {
    if (args[0] !== "verify") throw new UsageError(`unknown audit subcommand ${args[0] ?? "(none)"}`);
    const { values } = parseArgs({ args: args.slice(1), strict: true, allowPositionals: false, options: { org: { type: "string" } } });
    await runAuditVerify(values);
  },
  forget: async (args) => {
    if (args[0] !== "verify") throw new UsageError(`unknown forget subcommand ${args[0] ?? "(none)"}`);
    const { values, positionals } = parseArgs({ args: args.slice(1), strict: true, allowPositionals: true, options: { "public-key": { type: "string" } } });
    if (positionals.length > 1) throw new UsageError("forget verify takes one certificate file");
    await runForgetVerify(positionals[0], values);
  },
  mcp: runMcp,
  export: runExport,
  import: runImport,
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
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) exitWithUsage((error as Error).message);
    console.error(`svc: ${(error as Error).message}`);
    process.exit(1);
  }
}

await main(process.argv.slice(2));
