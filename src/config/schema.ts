// The one schema for every environment variable; each area owns a section file.
import { Type as T, type Static } from "@sinclair/typebox";
import { accountabilitySection } from "./sections/accountability";
import { coreSection } from "./sections/core";
import { gatesSection } from "./sections/gates";
import { limitsSection } from "./sections/limits";
import { memorySection } from "./sections/memory";
import { providersSection } from "./sections/providers";
import { recallSection } from "./sections/recall";
import { securitySection } from "./sections/security";
import { refineSection } from "./sections/refine";
import { telemetrySection } from "./sections/telemetry";
import { workerSection } from "./sections/worker";
import { extractSection } from "./sections/extract";
import { graphSection } from "./sections/graph";
import { ingestSection } from "./sections/ingest";
import { graphQuerySection } from "./sections/graph-query";
import { agentsSection } from "./sections/agents";
import { idempotencySection } from "./sections/idempotency";
import { fairnessSection } from "./sections/fairness";
import { webhooksSection } from "./sections/webhooks";
import { statisticsSection } from "./sections/statistics";

export const ConfigSchema = T.Object({
  ...accountabilitySection,
  ...coreSection,
  ...gatesSection,
  ...limitsSection,
  ...memorySection,
  ...providersSection,
  ...recallSection,
  ...telemetrySection,
  ...workerSection,
  ...extractSection,
  ...graphSection,
  ...ingestSection,
  ...securitySection,
  ...refineSection,
  ...graphQuerySection,
  ...agentsSection,
  ...idempotencySection,
  ...fairnessSection,
  ...webhooksSection,
  ...statisticsSection,
});

export type Config = Readonly<Static<typeof ConfigSchema>>;
