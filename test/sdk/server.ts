// The real app listening on a loopback port, so the SDK talks real HTTP to it.
import { testApp, type TestApp } from "../harness/app";
import { SDK_TYPES_GATES } from "../../scripts/sdk-types";

export type Served = { t: TestApp; url: string; stop: () => Promise<void> };

export async function serve(overrides: Parameters<typeof testApp>[0] = {}): Promise<Served> {
  const t = await testApp(overrides);
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: t.handle });
  return {
    t,
    url: `http://127.0.0.1:${server.port}`,
    stop: async () => {
      server.stop(true);
      await t.close();
    },
  };
}

export const ALL_GATES = SDK_TYPES_GATES;
