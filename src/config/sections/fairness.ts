// Fair shares: bounds that keep one tenant's heavy or slow work from holding what others need.
import { Type as T } from "@sinclair/typebox";

export const fairnessSection = {
  EXPORT_STALL_SECONDS: T.Integer({ default: 30, minimum: 1, description: "An export whose client reads nothing for this long is abandoned and its database connection released" }),
  EXPORT_MAX_SECONDS: T.Integer({ default: 1800, minimum: 1, description: "Longest an HTTP export may hold its snapshot; past it the stream ends without its end record (use `svc export` for larger tenants)" }),
};
