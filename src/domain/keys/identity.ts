// Who a verified API key is: its tenant, its id and visible start, and its scopes. The
// authenticator produces it and the key cache keeps it.
import type { Scope } from "../../lib/scopes";

export type KeyIdentity = {
  orgId: string;
  keyId: string;
  keyStart: string;
  scopes: readonly Scope[];
};
