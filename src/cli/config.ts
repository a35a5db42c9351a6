// Loads configuration for a subcommand; a bad variable prints its name and exits 1.
import { ConfigError, loadConfig } from "../config/load";
import type { Config } from "../config/schema";

export function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`svc: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}
