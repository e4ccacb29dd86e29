// The creation screen of each capability (SPEC §2 routes).
import type { Capability } from "@tracemill/contracts";

export const capabilityRoutes: Record<Capability, string> = {
  extract: "/ui/extract",
  label: "/ui/extract/labeling",
  ipt: "/ui/extract/ipts",
  images: "/ui/extract/images",
  sanitize: "/ui/clear",
  merge: "/ui/merge",
  dataset: "/ui/dataset",
};
