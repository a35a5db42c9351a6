// Who is acting: the resolved tenant, key and request. Handlers pass it to domain code.
export type Actor = Readonly<{
  orgId: string;
  /** null for system actors (beat tasks, CLI). */
  keyId: string | null;
  requestId: string | null;
  role: "tenant" | "superadmin" | "system";
}>;

export const systemActor = (orgId: string, requestId: string | null = null): Actor => ({
  orgId,
  keyId: null,
  requestId,
  role: "system",
});
