// Jobs: create (validating capability, parameters and inputs), list (whole, or a page), read, update, delete, cancel —
// with the rule that a private job exists only for its owner (everyone else gets 404).
import crypto from "node:crypto";
import {
  type Capability,
  capabilitiesMatching,
  createJobRequest,
  type DatasetParams,
  type FileFormat,
  type FileRef,
  formatsByRole,
  type InputRole,
  inputRolesByCapability,
  type Job,
  type JobLineage,
  type JobPage,
  jobMessages,
  listRolesByCapability,
  multiCaptureCapabilities,
  paramsByCapability,
  parseJobListQuery,
  updateJobRequest,
} from "@tracemill/contracts";
import { bundledRulesetsDir, listRulesets, resolveRuleset } from "@tracemill/engine";
import type { Db } from "../db/connect.js";
import { jobParts } from "../jobs/job-parts.js";
import type { ProgressHub } from "../jobs/progress-hub.js";
import type { JobRunner } from "../jobs/runner.js";
import { withoutServerPaths } from "../jobs/user-paths.js";
import { filesRepository } from "../repositories/files.js";
import { type JobListScope, jobListRepository } from "../repositories/job-list.js";
import { type JobOutputRow, type JobRow, jobsRepository, type NewInput, type NewJob } from "../repositories/jobs.js";
import { lineageRepository } from "../repositories/lineage.js";
import { UnrecognisedFile } from "../storage/sniff-format.js";
import type { Storage } from "../storage/storage.js";
import type { CurrentUser } from "./accounts.js";
import { datasetJobParams } from "./dataset-jobs.js";
import { checkCicCompat, checkFeatureSets } from "./feature-sets.js";
import { HttpError, notFound, signInRequired, validationError } from "./http-error.js";
import { jobViews } from "./job-view.js";
import { libraryInputs } from "./libraries.js";
import { jobLineage, readableBy } from "./lineage.js";

const finished = new Set(["succeeded", "failed", "cancelled"]);

/** Output kinds of a merge job: its merged capture and the provenance record that says where each packet came from. */
const MERGED_KIND = "merged-pcap";
const PROVENANCE_KIND = "provenance-json";

/** Binary labels need the attack capture, unless the capture is a merge's output whose provenance labels it exactly. */
function requiredRoles(capability: Capability, params: Record<string, unknown>, fromMerge: boolean): InputRole[] {
  if (capability !== "label") return inputRolesByCapability[capability].required;
  if (params.mode === "multiclass") return ["capture", "alerts"];
  return fromMerge ? ["capture"] : ["capture", "attacks"];
}

/**
 * The inputs by role as lists, in the order given. Only `capture` may list several files, and only for capabilities
 * whose parts' outputs combine; a capability that reads lists in one run (a dataset job) takes them for its own roles.
 */
function inputLists(
  capability: Capability,
  inputs: Partial<Record<InputRole, FileRef | FileRef[]>>,
): Partial<Record<InputRole, FileRef[]>> {
  const lists: Partial<Record<InputRole, FileRef[]>> = {};
  const listRoles = listRolesByCapability[capability];
  for (const [role, value] of Object.entries(inputs) as [InputRole, FileRef | FileRef[]][]) {
    const list = Array.isArray(value) ? value : [value];
    const most = listRoles?.[role];
    if (list.length > 1 && listRoles && role !== "provenance") {
      if (most === undefined) throw new HttpError(400, [`Only one file of role ${role} (${list.length} given)`]);
      if (list.length > most) {
        throw new HttpError(400, [
          `A ${capability} job takes at most ${most} files of role ${role} (${list.length} given)`,
        ]);
      }
    } else if (list.length > 1 && role !== "capture") {
      throw new HttpError(400, [`Only the capture input takes several files (${role} has ${list.length})`]);
    } else if (list.length > 1 && !multiCaptureCapabilities.includes(capability)) {
      throw new HttpError(400, [
        `A ${capability} job takes one capture; jobs of ${multiCaptureCapabilities.join(", ")} take several`,
      ]);
    }
    lists[role] = list;
  }
  return lists;
}

export interface JobsOptions {
  /** The server's rulesets, offered beside the bundled ones. */
  rulesetsDir: string;
  /** Directories whose paths no job shows its users (user-paths.ts, serverDirs). */
  serverDirs: readonly string[];
}

export function jobsService(
  db: Db,
  store: Storage,
  runner: Pick<JobRunner, "wake" | "cancel">,
  hub: ProgressHub,
  options: JobsOptions,
) {
  const jobs = jobsRepository(db);
  const list = jobListRepository(db);
  const files = filesRepository(db);
  const libraries = libraryInputs(db);
  const parts = jobParts(db, hub);
  const hide = (text: string) => withoutServerPaths(text, [], options.serverDirs);

  const lineage = lineageRepository(db);
  const canRead = (row: JobRow, user: CurrentUser | null) => readableBy(user?.id ?? null)(row);

  /** The job if this user may read it; 404 otherwise, so private jobs do not reveal they exist. */
  async function readable(id: string, user: CurrentUser | null): Promise<JobRow> {
    const row = await jobs.byId(id);
    if (!row || !canRead(row, user)) throw notFound();
    return row;
  }

  /** The job if this user owns it; a public job of someone else is 403, a private one 404. */
  async function owned(id: string, user: CurrentUser | null): Promise<JobRow> {
    const row = await readable(id, user);
    if (!user) throw signInRequired();
    if (row.owner_id !== user.id) throw new HttpError(403, ["Only the owner can change this job"]);
    return row;
  }

  async function view(row: JobRow, user: CurrentUser | null): Promise<Job> {
    const [job] = await jobViews(jobs, [row], user?.id ?? null, hide, parts.list);
    return job;
  }

  /** Brings a readable job's output in as a file of the user's (a hard link when possible) that names its source. */
  async function importOutput(
    source: JobRow,
    output: JobOutputRow,
    user: CurrentUser,
    sniffed: { format: FileFormat; compression: "gzip" | null },
  ) {
    const id = crypto.randomUUID();
    const sha256 = await store.importOutput(source.id, output.name, id, output.sha256);
    await files.insert({
      id,
      owner_id: user.id,
      name: output.name,
      size: Number(output.size),
      sha256,
      format: sniffed.format,
      compression: sniffed.compression,
      created_at: new Date().toISOString(),
      source_job_id: source.id,
      source_output: output.name,
    });
    return id;
  }

  /**
   * Resolves an input to a file of the user's: an upload of theirs, a copy of a readable job's output, or a row
   * standing for a capture library's file.
   */
  async function resolveInput(ref: FileRef, user: CurrentUser): Promise<{ id: string; copied: boolean }> {
    // A row made for this request (copied: it goes if the request fails); the library's file itself is never touched.
    if ("library" in ref) return { id: await libraries.fileForJob(user, ref), copied: true };
    if ("fileId" in ref) {
      const file = await files.byId(ref.fileId);
      if (!file || file.owner_id !== user.id) throw new HttpError(400, [jobMessages.fileNotFound]);
      return { id: file.id, copied: false };
    }
    const source = await jobs.byId(ref.jobId);
    if (!source || !canRead(source, user)) throw new HttpError(400, [jobMessages.fileNotFound]);
    const [output] = (await jobs.outputsOf([source.id])).filter((o) => o.name === ref.output);
    if (source.status !== "succeeded") throw new HttpError(400, [jobMessages.notFinished]);
    if (!output) throw new HttpError(400, [jobMessages.fileNotFound]);
    const sniffed = await store.sniffOutput(source.id, output.name).catch((error: unknown) => {
      if (!(error instanceof UnrecognisedFile)) throw error;
      throw new HttpError(400, [`${jobMessages.wrongFormat}: ${output.name} is not a file any capability reads`]);
    });
    return { id: await importOutput(source, output, user, sniffed), copied: true };
  }

  /**
   * When a capture input is the merged capture of a merge job the user may read: that job, its provenance record
   * (the output that labels the capture's packets exactly) and the SHA-256 of the attack capture it merged.
   */
  async function mergeProvenance(ref: FileRef | undefined, user: CurrentUser) {
    if (!ref || !("jobId" in ref)) return null;
    const source = await jobs.byId(ref.jobId);
    if (!source || !canRead(source, user) || source.capability !== "merge" || source.status !== "succeeded") {
      return null;
    }
    const outputs = await jobs.outputsOf([source.id]);
    const record = outputs.find((o) => o.kind === PROVENANCE_KIND);
    if (!record || !outputs.some((o) => o.name === ref.output && o.kind === MERGED_KIND)) return null;
    const attacks = (await jobs.inputsOf([source.id])).find((i) => i.role === "attacks");
    return { source, record, attacksSha256: attacks?.sha256 ?? null };
  }

  /** A sanitize job names a ruleset of this server: one that could only fail is refused, saying what there is. */
  async function checkRuleset(name: string): Promise<void> {
    const dirs = [bundledRulesetsDir, options.rulesetsDir];
    try {
      await resolveRuleset(name, dirs);
    } catch {
      const offered = new Set((await Promise.all(dirs.map(listRulesets))).flat().map((r) => r.name));
      throw new HttpError(400, [
        `Invalid parameter ruleset: no ruleset "${name}" on this server (it has ${[...offered].join(", ")})`,
      ]);
    }
  }

  /**
   * Queues a new job of the user's over stored files of theirs (by role, in order); several captures make one part
   * each, queued like any job, and the job itself waits for them (jobs/job-parts.ts).
   */
  async function queue(
    user: CurrentUser,
    request: { title: string; description: string; public: boolean; capability: Capability; params: unknown },
    inputs: (NewInput & { role: InputRole })[],
  ): Promise<Job> {
    const captures = inputs.filter((input) => input.role === "capture");
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    const job = {
      id,
      owner_id: user.id,
      title: request.title,
      description: request.description,
      public: request.public ? 1 : 0,
      capability: request.capability,
      params: JSON.stringify(request.params),
      status: "queued",
      percent: 0,
      stage: "queued",
      error: null,
      summary: null,
      cancel_requested: 0,
      attempts: 0,
      created_at: now,
      started_at: null,
      finished_at: null,
    };
    if (captures.length > 1 && multiCaptureCapabilities.includes(request.capability)) {
      const shared = inputs.filter((input) => input.role !== "capture");
      const partJobs: NewJob[] = captures.map((capture, index) => ({
        job: {
          ...job,
          id: crypto.randomUUID(),
          title: `${request.title} (capture ${index + 1} of ${captures.length})`,
          parent_id: id,
          part_index: index,
        },
        inputs: [{ role: "capture", fileId: capture.fileId }, ...shared],
      }));
      await jobs.insert(
        {
          ...job,
          status: "running",
          stage: `0 of ${captures.length} captures done`,
          started_at: now,
          part_count: captures.length,
        },
        inputs,
        partJobs,
      );
    } else {
      await jobs.insert(job, inputs);
    }
    runner.wake();
    return view((await jobs.byId(id))!, user);
  }

  async function page(scope: JobListScope, user: CurrentUser | null, raw: unknown): Promise<JobPage> {
    const parsed = parseJobListQuery(raw);
    if ("messages" in parsed) throw new HttpError(400, parsed.messages);
    const { q, ...query } = parsed.query;
    const search = q === undefined ? undefined : { text: q, capabilities: capabilitiesMatching(q) };
    const { rows, total } = await list.page(scope, { ...query, search });
    const end = query.offset + rows.length;
    return {
      jobs: await jobViews(jobs, rows, user?.id ?? null, hide, parts.list),
      total,
      offset: query.offset,
      limit: query.limit,
      nextOffset: end < total ? end : null,
    };
  }

  return {
    readable,

    async create(user: CurrentUser | null, body: unknown): Promise<Job> {
      if (!user) throw signInRequired();
      const parsed = createJobRequest.safeParse(body ?? {});
      if (!parsed.success) throw validationError(parsed.error);
      const request = parsed.data;
      const params = paramsByCapability[request.capability].safeParse(request.params);
      if (!params.success) {
        throw new HttpError(
          400,
          params.error.issues.map((i) => `Invalid parameter ${i.path.join(".") || "params"}: ${i.message}`),
        );
      }
      const { features, cicCompat } = params.data as { features?: string[]; cicCompat?: boolean };
      if (features !== undefined) checkFeatureSets(features);
      if (cicCompat === true) checkCicCompat(request.capability, features ?? []);
      if (request.capability === "sanitize" && !request.inputs.rules) {
        await checkRuleset((params.data as { ruleset: string }).ruleset);
      }
      const refs = inputLists(request.capability, request.inputs);
      if (request.capability === "dataset") {
        params.data = datasetJobParams(params.data as DatasetParams, request.title, refs);
      }
      const captures = refs.capture ?? [];
      const merged =
        request.capability === "label" &&
        (params.data as { mode?: string }).mode !== "multiclass" &&
        captures.length === 1
          ? await mergeProvenance(captures[0], user)
          : null;
      const required = requiredRoles(request.capability, params.data, merged !== null);
      const allowed = new Set([...required, ...inputRolesByCapability[request.capability].optional]);
      const problems: string[] = [];
      for (const role of required) if (!request.inputs[role]) problems.push(`${jobMessages.inputRequired} ${role}`);
      for (const role of Object.keys(request.inputs)) {
        if (!allowed.has(role as InputRole)) problems.push(`${jobMessages.inputNotAllowed} ${role}`);
      }
      if (problems.length > 0) throw new HttpError(400, problems);

      const inputs: (NewInput & { role: InputRole })[] = [];
      const copied: string[] = [];
      try {
        for (const [role, list] of Object.entries(refs) as [InputRole, FileRef[]][]) {
          for (const [position, ref] of list.entries()) {
            const resolved = await resolveInput(ref, user);
            inputs.push({ role, fileId: resolved.id, position });
            if (resolved.copied) copied.push(resolved.id);
            const file = await files.byId(resolved.id);
            if (!file || !formatsByRole[role].includes(file.format as never)) {
              throw new HttpError(400, [
                `${jobMessages.wrongFormat} ${role}: ${file?.name} is ${file?.format}, expected ${formatsByRole[role].join(", ")}`,
              ]);
            }
            // Both given: the provenance labels, so the attack capture must be the one that was merged.
            if (role === "attacks" && merged && file.sha256 !== merged.attacksSha256) {
              throw new HttpError(400, [jobMessages.attacksNotMerged]);
            }
          }
        }
        if (merged) {
          const id = await importOutput(merged.source, merged.record, user, {
            format: "provenance",
            compression: null,
          });
          copied.push(id);
          inputs.push({ role: "provenance", fileId: id });
        }
        // A dataset job labels each capture that is a merge's output from its record, laid beside that capture.
        if (request.capability === "dataset" && (params.data as DatasetParams).labels.provenance) {
          for (const [position, ref] of captures.entries()) {
            const source = await mergeProvenance(ref, user);
            if (!source) continue;
            const id = await importOutput(source.source, source.record, user, {
              format: "provenance",
              compression: null,
            });
            copied.push(id);
            inputs.push({ role: "provenance", fileId: id, position });
          }
        }
      } catch (error) {
        // Outputs of other jobs copied in for this request go again when the request fails.
        await files.remove(copied);
        store.removeFiles(copied);
        throw error;
      }
      return queue(
        user,
        {
          title: request.title,
          description: request.description,
          public: request.public,
          capability: request.capability,
          params: params.data as Record<string, unknown>,
        },
        inputs,
      );
    },

    async listMine(user: CurrentUser | null): Promise<Job[]> {
      if (!user) throw signInRequired();
      return jobViews(jobs, await jobs.listByOwner(user.id), user.id, hide, parts.list);
    },

    async listPublic(user: CurrentUser | null): Promise<Job[]> {
      return jobViews(jobs, await jobs.listPublic(), user?.id ?? null, hide, parts.list);
    },

    /** One page of the user's jobs, searched, filtered and sorted as the query says (job-list.ts). */
    async pageMine(user: CurrentUser | null, query: unknown): Promise<JobPage> {
      if (!user) throw signInRequired();
      return page({ ownerId: user.id }, user, query);
    },

    /** One page of everyone's public jobs, for anyone (signed out too). */
    async pagePublic(user: CurrentUser | null, query: unknown): Promise<JobPage> {
      return page({ publicOnly: true }, user, query);
    },

    async get(user: CurrentUser | null, id: string): Promise<Job> {
      return view(await readable(id, user), user);
    },

    /** The jobs a readable job came from and the jobs that used its outputs, those the user may read (lineage.ts). */
    async lineage(user: CurrentUser | null, id: string): Promise<JobLineage> {
      return jobLineage({ jobs, lineage }, await readable(id, user), user?.id ?? null);
    },

    async update(user: CurrentUser | null, id: string, body: unknown): Promise<Job> {
      const row = await owned(id, user);
      const parsed = updateJobRequest.safeParse(body ?? {});
      if (!parsed.success) throw validationError(parsed.error);
      const { title, description, public: isPublic } = parsed.data;
      await jobs.update(row.id, {
        ...(title !== undefined && { title }),
        ...(description !== undefined && { description }),
        ...(isPublic !== undefined && { public: isPublic ? 1 : 0 }),
      });
      hub.changed(row.id);
      return view((await jobs.byId(row.id))!, user);
    },

    async remove(user: CurrentUser | null, id: string): Promise<void> {
      const row = await owned(id, user);
      const partIds = (await parts.list(row.id)).map((part) => part.id);
      if (partIds.length > 0) await parts.cancel(row.id);
      for (const jobId of [...partIds, row.id]) {
        const state = jobId === row.id ? row : await jobs.byId(jobId);
        if (state?.status !== "running") continue;
        await jobs.update(jobId, { cancel_requested: 1 });
        await runner.cancel(jobId);
      }
      const unshared = await files.unsharedInputsOf([row.id, ...partIds]);
      await jobs.remove(row.id);
      for (const partId of partIds) store.removeJob(partId);
      await files.remove(unshared);
      store.removeFiles(unshared);
      store.removeJob(row.id);
      hub.changed(row.id);
    },

    async cancel(user: CurrentUser | null, id: string): Promise<Job> {
      const row = await owned(id, user);
      if (finished.has(row.status)) throw new HttpError(409, ["The job has already finished"]);
      const now = new Date().toISOString();
      const wasQueued = await jobs.transition(row.id, ["queued"], {
        status: "cancelled",
        stage: "cancelled",
        finished_at: now,
        cancel_requested: 1,
      });
      if (row.part_count > 0) await parts.cancel(row.id);
      const wasWaiting = !wasQueued && row.part_count > 0 && (await parts.cancelWaiting(row.id));
      if (!wasQueued && !wasWaiting) {
        await jobs.update(row.id, { cancel_requested: 1 });
        await runner.cancel(row.id);
      }
      hub.changed(row.id);
      return view((await jobs.byId(row.id))!, user);
    },

    /**
     * A failed or cancelled job of the user's again, as a new job: the same capability, parameters, title and inputs
     * (the stored files it read, nothing uploaded again). The old job stays as it ended, for its error.
     */
    async retry(user: CurrentUser | null, id: string): Promise<Job> {
      const row = await owned(id, user);
      if (row.parent_id !== null) throw notFound();
      if (row.status !== "failed" && row.status !== "cancelled") {
        throw new HttpError(409, ["Only a failed or cancelled job can be retried"]);
      }
      const inputs = (await jobs.inputsOf([row.id])).map((input) => ({
        role: input.role as InputRole,
        fileId: input.id,
        position: Number(input.position),
      }));
      const request = {
        title: row.title,
        description: row.description,
        public: row.public === 1,
        capability: row.capability as Capability,
        params: JSON.parse(row.params) as unknown,
      };
      return queue(user!, request, inputs);
    },

    /** Path of an output of a readable job, by its name as listed in the job (never a path from the request). */
    async output(user: CurrentUser | null, id: string, name: string) {
      const row = await readable(id, user);
      const [output] = (await jobs.outputsOf([row.id])).filter((o) => o.name === name);
      if (!output) throw notFound();
      return { job: row, name: output.name, kind: output.kind, path: store.outputPath(row.id, output.name) };
    },

    async outputs(user: CurrentUser | null, id: string) {
      const row = await readable(id, user);
      const outputs = await jobs.outputsOf([row.id]);
      return {
        job: row,
        files: outputs.map((o) => ({ name: o.name, kind: o.kind, path: store.outputPath(row.id, o.name) })),
      };
    },
  };
}

export type JobsService = ReturnType<typeof jobsService>;
