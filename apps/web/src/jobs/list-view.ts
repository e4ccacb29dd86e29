// What a job list shows (search, filters, sort, page), read from and written to the page's address, so a link
// reproduces the view; and the API query it asks for. Anything unknown in the address falls back to the default.
import type { JobListQuery } from "@tracemill/contracts";
import {
  type Capability,
  capabilities,
  defaultOrder,
  JOB_PAGE_SIZE,
  type JobOutcome,
  type JobSortKey,
  jobOutcomes,
  jobSortKeys,
  type SortOrder,
} from "@tracemill/contracts/names";

export interface ListView {
  q: string;
  capability?: Capability;
  status?: JobOutcome;
  sort: JobSortKey;
  order: SortOrder;
  /** From 1. */
  page: number;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((v) => v === value);

export function readListView(search: URLSearchParams): ListView {
  const sort = oneOf(jobSortKeys, search.get("sort")) ?? "created";
  const page = Number(search.get("page"));
  return {
    q: search.get("q") ?? "",
    capability: oneOf(capabilities, search.get("capability")),
    status: oneOf(jobOutcomes, search.get("status")),
    sort,
    order: oneOf(["asc", "desc"] as const, search.get("order")) ?? defaultOrder(sort),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The address's query for a view: only what differs from the default, so the plain list has a plain address. */
export function listViewSearch(view: ListView): URLSearchParams {
  const search = new URLSearchParams();
  if (view.q.trim()) search.set("q", view.q.trim());
  if (view.capability) search.set("capability", view.capability);
  if (view.status) search.set("status", view.status);
  if (view.sort !== "created") search.set("sort", view.sort);
  if (view.order !== defaultOrder(view.sort)) search.set("order", view.order);
  if (view.page > 1) search.set("page", String(view.page));
  return search;
}

export function listQuery(view: ListView): JobListQuery {
  return {
    ...(view.q.trim() && { q: view.q.trim() }),
    capability: view.capability,
    status: view.status,
    sort: view.sort,
    order: view.order,
    limit: JOB_PAGE_SIZE,
    offset: (view.page - 1) * JOB_PAGE_SIZE,
  };
}

/** Sorting by a column: the same column again turns the order round; another starts in its usual order. */
export function sortedBy(view: ListView, sort: JobSortKey): ListView {
  const order = view.sort === sort ? (view.order === "asc" ? "desc" : "asc") : defaultOrder(sort);
  return { ...view, sort, order, page: 1 };
}
