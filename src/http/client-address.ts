// The client address a request is throttled by before authentication: the socket's peer, or,
// behind TRUSTED_PROXY_HOPS proxies, the X-Forwarded-For entry the outermost trusted proxy
// appended. Entries further left are written by the client and never trusted.
export type SocketPeer = { requestIP(request: Request): { address: string } | null };

/** Without a socket (a request handed to the app in-process) every caller shares this address. */
export const UNKNOWN_ADDRESS = "unknown";

export function clientAddress(
  request: Request,
  peer: SocketPeer | undefined,
  trustedHops: number,
): string {
  const socket = peer?.requestIP(request)?.address ?? UNKNOWN_ADDRESS;
  if (trustedHops === 0) return socket;
  const forwarded = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  // Each trusted proxy appends the address it saw; the last `trustedHops` entries are theirs.
  return forwarded[forwarded.length - trustedHops] ?? socket;
}
