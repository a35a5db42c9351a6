// POST /v1/memories/forget: soft-delete one (memory_id) or many (memory_ids) memories, keeping history.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { withTenant } from "../../../data/with-tenant";
import { validationFailed } from "../../../domain/errors";
import { issueForgetCertificate } from "../../../domain/forget-proof/certificate";
import { forgetMemories } from "../../../domain/memories/forget";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../schemas/common";
import { forgetBody, ForgetResponse } from "../../schemas/memories";

export const forgetMemoriesRoute = (deps: Deps) => new Elysia().post("/v1/memories/forget", async ({ request, body }) => {
  const actor = actorOf(request);
  if ((body.memory_id === undefined) === (body.memory_ids === undefined)) {
    throw validationFailed([{ path: "memory_ids", message: "give exactly one of memory_id or memory_ids" }]);
  }
  const ids = body.memory_ids ?? [body.memory_id!];
  // One transaction: forget-proof certificates (FORGET_PROOF_ENABLED) are issued in it, after the forget.
  return withTenant(deps.db, actor.orgId, async (tx) => {
    const result = await forgetMemories(tx, actor, ids, "api", { agentId: body.agent_id });
    const certId = deps.forgetSigner ? await issueForgetCertificate(tx, actor, result.forgotten, result.derived, { forgetSigner: deps.forgetSigner }) : null;
    return { forgotten: result.forgotten.map((f) => f.memory_id), not_found: result.not_found, cert_id: certId };
  });
}, {
  parse: "json",
  body: forgetBody(deps.config),
  response: { 200: ForgetResponse, ...authedErrors(400, 413, 415) },
  detail: { tags: ["Memories"], summary: "Forget memories (soft delete)", description: "Sets valid_to and deleted_at on the current version; history stays readable. Ids that are unknown, another tenant's or already forgotten are listed in not_found (the call is idempotent)." },
});
