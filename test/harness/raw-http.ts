// Raw HTTP over a socket, for requests fetch() cannot send (HTTP/1.0 without Host, an empty or
// short Host), against the real listener (listenHttp) wrapping an app.
import net from "node:net";
import type { Deps } from "../../src/operations/deps";
import { createApp, handleRequest } from "../../src/app/create-app";
import { listenHttp } from "../../src/http/listen";

export type RawResponse = { status: number; headers: string; body: string };

export function rawRequest(port: number, text: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let out = "";
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      out += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const split = out.indexOf("\r\n\r\n");
      const head = out.slice(0, split);
      resolve({ status: Number(head.split(" ")[1]), headers: head, body: out.slice(split + 4) });
    });
  });
}

/** The app of `deps` behind a real listener on a free port. */
export function listenApp(deps: Deps) {
  return listenHttp(
    { ...deps, config: { ...deps.config, HOST: "127.0.0.1" } },
    { port: 0, fetch: handleRequest(createApp(deps), deps) },
  );
}
