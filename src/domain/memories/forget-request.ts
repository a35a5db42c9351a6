// One forget request (POST /v1/memories/forget and its MCP tool): one memory_id or many memory_ids,
// forgotten in one tenant transaction that also issues the forget-proof certificate when
// FORGET_PROOF_ENABLED is on.
import type { Ports } from "../ports/ports";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { validationFailed } from "../../lib/errors";
import { issueForgetCertificate } from "../forget-proof/certificate";
import { forgetMemories } from "./forget";

export type ForgetRequest = { memory_id?: string; memory_ids?: string[]; agent_id?: string };
export type ForgetAnswer = { forgotten: string[]; not_found: string[]; cert_id: string | null };

export async function forgetRequested(
  deps: Pick<Ports, "db" | "forgetSigner">,
  actor: Actor,
  request: ForgetRequest,
): Promise<ForgetAnswer> {
  if ((request.memory_id === undefined) === (request.memory_ids === undefined)) {
    throw validationFailed([
      { path: "memory_ids", message: "give exactly one of memory_id or memory_ids" },
    ]);
  }
  const ids = request.memory_ids ?? [request.memory_id!];
  return withTenant(deps.db, actor.orgId, async (tx) => {
    const result = await forgetMemories(tx, actor, ids, "api", { agentId: request.agent_id });
    const certId = deps.forgetSigner
      ? await issueForgetCertificate(tx, actor, result.forgotten, result.derived, {
          forgetSigner: deps.forgetSigner,
        })
      : null;
    return {
      forgotten: result.forgotten.map((f) => f.memory_id),
      not_found: result.not_found,
      cert_id: certId,
    };
  });
}
